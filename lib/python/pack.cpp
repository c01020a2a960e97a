// pgnarc.pack and the pieces of pgnarc.dask.pack: PGN readers into an ArchiveWriter, the GIL
// released while they run.
#include "pack.h"

#include <pybind11/stl.h>

#include <functional>
#include <memory>

#include "errors.h"
#include "pgnarc/pgnarc.h"

namespace pgnarc::python {
namespace {

py::dict stats_dict(const PackStats& s, const std::vector<std::string>& problems) {
  py::dict d;
  d["games"] = s.games;
  d["verbatim_games"] = s.raw_games;
  d["plies"] = s.plies;
  d["input_bytes"] = s.input_bytes;
  d["output_bytes"] = s.output_bytes;
  d["blocks"] = s.blocks;
  py::list kept;
  for (const std::string& p : problems) kept.append(text(p));
  d["problems"] = kept;
  return d;
}

WriterOptions writer_options(unsigned threads, bool force, const std::string& moves, bool position_filter,
                             const std::string& variant = {}) {
  WriterOptions o;
  if (!variant_of_tag(variant, o.variant))
    throw py::value_error("unknown variant " + variant);
  o.threads = threads;
  o.overwrite = force;
  o.moves = moves == "uniform" ? MoveCoding::kUniform : moves == "fast" ? MoveCoding::kFast : MoveCoding::kMax;
  o.position_filter = position_filter;
  return o;
}

// Packs the readers `open` gives, one after the other, into `output`.
py::dict pack_readers(const std::vector<std::function<Result<std::unique_ptr<PgnReader>>()>>& inputs,
                      const std::string& output, const WriterOptions& o) {
  std::vector<std::string> problems;
  Result<PackStats> stats = [&]() -> Result<PackStats> {
    py::gil_scoped_release release;
    auto w = ArchiveWriter::create(output, o);
    if (!w) return w.error();
    for (const auto& open : inputs) {
      auto reader = open();
      if (!reader) return reader.error();
      const auto problem = [&](const Problem& p) {
        problems.push_back("game " + std::to_string(p.game_number) + ": " + p.error.message());
      };
      if (auto st = (*w)->add_pgn(**reader, problem); !st) return st.error();
    }
    return (*w)->finish();
  }();
  return stats_dict(value_or_raise(std::move(stats)), problems);
}

}  // namespace

// The PGN `data` (plain, or compressed as its name says) packed into `output`: a shard of a
// larger input (pgnarc.dask.pack).
py::dict pack_bytes(py::bytes data, const std::string& name, const std::string& output, unsigned threads, bool force,
                    const std::string& moves, bool position_filter) {
  std::string bytes = data;
  const auto open = [&]() -> Result<std::unique_ptr<PgnReader>> {
    auto source = pgn_input(memory_input(std::move(bytes)), name);
    if (!source) return source.error();
    return std::make_unique<PgnReader>(std::move(*source), name);
  };
  return pack_readers({open}, output, writer_options(threads, force, moves, position_filter));
}

// Archives joined block by block into `output`, as pgnarc merge does.
py::dict merge(const std::vector<std::string>& inputs, const std::string& output, bool force) {
  WriterOptions o;
  o.overwrite = force;
  Result<PackStats> stats = [&]() -> Result<PackStats> {
    py::gil_scoped_release release;
    auto w = ArchiveWriter::create(output, o);
    if (!w) return w.error();
    for (const std::string& input : inputs)
      if (auto st = (*w)->add_archive_blocks(input); !st) return st.error();
    return (*w)->finish();
  }();
  return stats_dict(value_or_raise(std::move(stats)), {});
}

// Where to cut the PGN file `path` into shards of about `shard_bytes` at the ends of games, as
// its reader finds them: 0, the cuts, and the input's size (of the decompressed input, for a
// compressed one).
std::vector<std::uint64_t> game_cuts(const std::string& path, std::uint64_t shard_bytes) {
  Result<std::vector<std::uint64_t>> cuts = [&]() -> Result<std::vector<std::uint64_t>> {
    py::gil_scoped_release release;
    auto reader = PgnReader::open(path);
    if (!reader) return reader.error();
    std::vector<std::uint64_t> out{0};
    PgnReader::RawGame game;
    for (;;) {
      auto got = (*reader)->next_raw(game);
      if (!got) return got.error();
      if (!*got) break;
      if ((*reader)->offset() - out.back() >= shard_bytes) out.push_back((*reader)->offset());
    }
    if ((*reader)->offset() > out.back()) out.push_back((*reader)->offset());
    return out;
  }();
  return value_or_raise(std::move(cuts));
}

py::dict pack(const std::vector<std::string>& inputs, const std::string& output, unsigned threads, bool force,
              const std::string& moves, bool position_filter, const std::string& variant) {
  std::vector<std::function<Result<std::unique_ptr<PgnReader>>()>> readers;
  for (const std::string& input : inputs) readers.push_back([input] { return PgnReader::open(input); });
  return pack_readers(readers, output, writer_options(threads, force, moves, position_filter, variant));
}

}  // namespace pgnarc::python
