// pgnarc.pack and the pieces of pgnarc.dask.pack: PGN readers into an ArchiveWriter, the GIL
// released while they run.
#include "pack.h"

#include <pybind11/stl.h>

#include <cstring>
#include <functional>
#include <memory>

#include "errors.h"
#include "python_object.h"
#include "pgnarc/pgnarc.h"

namespace pgnarc::python {
namespace {

// A Python binary stream as a ByteSource: read(n) called on the thread that packs, which takes
// the GIL for it; an exception it raises, or text where bytes belong, is an IO error naming it.
class PythonStream : public ByteSource {
 public:
  PythonStream(std::shared_ptr<py::object> stream, std::string name) : stream_(std::move(stream)), name_(std::move(name)) {}
  Result<std::size_t> read(char* buf, std::size_t n) override {
    py::gil_scoped_acquire acquire;
    try {
      const py::object got = stream_->attr("read")(n);
      if (py::isinstance<py::str>(got))
        return io_error("cannot read " + name_ + ": it gives text, not bytes (open it in binary mode, 'rb')");
      const std::string_view bytes = buffer_bytes(got);
      if (bytes.size() > n)
        return io_error("cannot read " + name_ + ": read(" + std::to_string(n) + ") gave " + std::to_string(bytes.size()) +
                        " bytes");
      std::memcpy(buf, bytes.data(), bytes.size());
      return bytes.size();
    } catch (py::error_already_set& e) {
      return io_error("cannot read " + name_ + ": " + e.what());
    } catch (const std::exception& e) {
      return io_error("cannot read " + name_ + ": read() did not give bytes (" + std::string(e.what()) + ")");
    }
  }

 private:
  std::shared_ptr<py::object> stream_;
  std::string name_;
};

// A reader of the PGN `raw` holds, as pgn_input takes it (decompressed, checked to be text).
Result<std::unique_ptr<PgnReader>> reader_of(std::unique_ptr<ByteSource> raw, const std::string& name) {
  auto source = pgn_input(std::move(raw), name);
  if (!source) return source.error();
  return std::make_unique<PgnReader>(std::move(*source), name);
}

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
                             const std::string& variant = {}, const std::string& clocks = "model",
                             const std::string& tags = "names", const std::string& xiangqi = "book") {
  WriterOptions o;
  o.variant = variant_named(variant);
  o.threads = threads;
  o.overwrite = force;
  o.moves = moves == "uniform" ? MoveCoding::kUniform : moves == "fast" ? MoveCoding::kFast : MoveCoding::kMax;
  o.position_filter = position_filter;
  o.model_clocks = clocks != "bytes";
  o.derive_tags = tags != "text";
  o.code_tags = tags == "coded" || tags == "tables" || tags == "names";
  o.table_tags = tags == "tables" || tags == "names";
  o.name_entries = tags == "names";
  o.xiangqi_model = o.xiangqi_positions = o.xiangqi_spellings = xiangqi != "uniform";
  o.xiangqi_book = xiangqi == "book";
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
                    const std::string& moves, bool position_filter, const std::string& variant,
                    const std::string& clocks, const std::string& tags, const std::string& xiangqi) {
  std::string bytes = data;
  const auto open = [&] { return reader_of(memory_input(std::move(bytes)), name); };
  return pack_readers({open}, output,
                      writer_options(threads, force, moves, position_filter, variant, clocks, tags, xiangqi));
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

py::dict pack(const py::list& inputs, const std::string& output, unsigned threads, bool force,
              const std::string& moves, bool position_filter, const std::string& variant,
              const std::string& clocks, const std::string& tags, const std::string& xiangqi) {
  std::vector<std::function<Result<std::unique_ptr<PgnReader>>()>> readers;
  int unnamed = 0;
  for (const py::handle input : inputs) {
    if (py::isinstance<py::str>(input)) {
      readers.push_back([path = input.cast<std::string>()] { return PgnReader::open(path); });
    } else if (py::hasattr(input, "read")) {
      const std::string name = py::hasattr(input, "name") ? py::str(input.attr("name")).cast<std::string>()
                                                           : "<stream " + std::to_string(++unnamed) + ">";
      auto stream = shared_with_gil(py::reinterpret_borrow<py::object>(input));
      readers.push_back([stream, name] { return reader_of(std::make_unique<PythonStream>(stream, name), name); });
    } else {
      // (Copied now, with the GIL held; each reader is opened once, so the copy is moved on.)
      const std::string name = "<bytes " + std::to_string(++unnamed) + ">";
      readers.push_back([data = std::string(buffer_bytes(py::reinterpret_borrow<py::object>(input))), name]() mutable {
        return reader_of(memory_input(std::move(data)), name);
      });
    }
  }
  return pack_readers(readers, output,
                      writer_options(threads, force, moves, position_filter, variant, clocks, tags, xiangqi));
}

}  // namespace pgnarc::python
