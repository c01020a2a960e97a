// Writing archives from Python: pgnarc.pack, pgnarc.dask's shards and their joining.
#pragma once

#include <pybind11/pybind11.h>

#include <cstdint>
#include <string>
#include <vector>

namespace pgnarc::python {

namespace py = pybind11;

// Packs PGN into `output`, as `pgnarc pack` does: the archive's figures and the problems that made
// games be kept verbatim. Each input is a path (str; "-" standard input), bytes (any buffer), or
// a binary stream (an object whose read(n) gives bytes), read as it is packed; plain, gzip or
// zstd, as its first bytes say.
py::dict pack(const py::list& inputs, const std::string& output, unsigned threads, bool force,
              const std::string& moves, bool position_filter, const std::string& variant,
              const std::string& clocks = "model", const std::string& tags = "derive",
              const std::string& xiangqi = "model");
// The PGN `data` (plain, or compressed as its name says) packed into `output`: a shard of a
// larger input (pgnarc.dask.pack).
py::dict pack_bytes(py::bytes data, const std::string& name, const std::string& output, unsigned threads, bool force,
                    const std::string& moves, bool position_filter, const std::string& variant,
                    const std::string& clocks = "model", const std::string& tags = "derive",
                    const std::string& xiangqi = "model");
// Archives joined block by block into `output`, as pgnarc merge does.
py::dict merge(const std::vector<std::string>& inputs, const std::string& output, bool force);
// Where to cut the PGN file `path` into shards of about `shard_bytes` at the ends of games.
std::vector<std::uint64_t> game_cuts(const std::string& path, std::uint64_t shard_bytes);

}  // namespace pgnarc::python
