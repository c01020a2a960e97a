// info, verify: what an archive holds, and whether it is sound.
#include <optional>
#include <string>

#include "commands.h"
#include "console.h"
#include "pgnarc/pgnarc.h"

namespace pgnarc::cli {
namespace {

using ull = unsigned long long;

std::string info_text(const ArchiveInfo& info) {
  std::string s;
  appendf(s,
          "format:   %s (written), %s (needed to read)\n"
          "file:     %llu bytes\n"
          "games:    %llu (%llu kept verbatim)\n"
          "blocks:   %llu\n"
          "plies:    %llu\n"
          "moves:    %.3f bits per ply (with record comments' values)\n",
          info.write_version.text().c_str(), info.read_version.text().c_str(), ull(info.file_bytes), ull(info.games),
          ull(info.verbatim_games), ull(info.blocks), ull(info.plies), moves_bits_per_ply(info));
  s += "section    stored bytes   uncompressed   share of file\n";
  for (Section k : kAllSections) {
    const SectionInfo& si = info.section(k);
    appendf(s, "%-10s %12llu   %12llu   %5.1f%%\n", section_name(k), ull(si.stored), ull(si.raw),
            100.0 * static_cast<double>(si.stored) / static_cast<double>(info.file_bytes));
  }
  appendf(s, "%-10s %12llu\n", "index", ull(info.index_bytes));
  if (info.name_chunks)
    appendf(s, "%-10s %12llu   in %llu chunk%s\n", "names", ull(info.name_bytes),
            ull(info.name_chunks), info.name_chunks == 1 ? "" : "s");
  if (info.table_chunks)
    appendf(s, "%-10s %12llu   in %llu chunk%s\n", "table", ull(info.table_bytes),
            ull(info.table_chunks), info.table_chunks == 1 ? "" : "s");
  if (info.dictionaries) appendf(s, "%-10s %12llu\n", "dictionary", ull(info.dictionary_bytes));
  appendf(s, "%-10s %12llu\n", "overhead",
          ull(info.block_overhead_bytes + info.header_bytes + info.footer_bytes));
  if (info.dictionary_blocks)
    appendf(s, "tags: compressed with the archive's tag dictionary in %llu of %llu blocks\n",
            ull(info.dictionary_blocks), ull(info.blocks));
  if (info.value_table_entries)
    appendf(s, "tags: value tables of %llu entries (%llu bytes of the index) named in %llu of %llu blocks\n",
            ull(info.value_table_entries), ull(info.value_table_bytes), ull(info.value_table_blocks), ull(info.blocks));
  if (info.position_filter_blocks)
    appendf(s, "positions: a position filter in %llu of %llu blocks (%llu bytes before compression)\n",
            ull(info.position_filter_blocks), ull(info.blocks), ull(info.position_filter_bytes));
  // What each section holds, for the lines on how blocks store it.
  const char* contents[kSectionCount] = {"tags", "moves", "structure", "texts (comments)",
                                         "raw (verbatim games)"};
  for (std::size_t k = 0; k < kSectionCount; ++k)
    if (info.sections[k].framed_blocks)
      appendf(s, "%s: one zstd frame per group of games in %llu of %llu blocks\n", contents[k],
              ull(info.sections[k].framed_blocks), ull(info.blocks));
  for (std::size_t k = 0; k < kSectionCount; ++k)
    if (info.sections[k].column_blocks)
      appendf(s, "%s: wording and numbers apart (column form) in %llu of %llu blocks\n",
              contents[k], ull(info.sections[k].column_blocks), ull(info.blocks));
  for (std::size_t k = 0; k < kSectionCount; ++k)
    if (info.sections[k].dictionary_blocks)
      appendf(s, "%s: compressed with the archive's %s dictionary in %llu of %llu blocks\n", contents[k],
              k < static_cast<std::size_t>(Section::Texts) ? "moves" : "text",  // (moves, structure: 10)
              ull(info.sections[k].dictionary_blocks), ull(info.blocks));
  return s;
}

struct InfoArgs {
  std::string archive;
  bool json = false;
};

int info(const InfoArgs& a) {
  auto archive = open_archive(a.archive);
  if (!archive) return report_archive_error(archive.error(), a.archive);
  std::optional<Result<ArchiveInfo>> info;
  {
    Progress progress("reading", (*archive)->game_count());
    info.emplace((*archive)->info([&](std::uint64_t games) { progress.update(games); }));
    progress.finish();
  }
  if (!*info) return report_archive_error(info->error(), a.archive);
  std::string text;
  if (a.json) {
    text += archive_info_json(**info);
    text += '\n';
  } else {
    text = info_text(**info);
  }
  Output out;
  out.write(text);
  if (auto closed = out.close(); !closed) return report(closed.error());
  return kOk;
}

struct VerifyArgs {
  std::string archive;
  unsigned threads = 0;
};

int verify(const VerifyArgs& a) {
  auto archive = open_archive(a.archive);
  if (!archive) return report_archive_error(archive.error(), a.archive);
  Progress progress("verifying", (*archive)->game_count());
  const Status st =
      (*archive)->verify([&](std::uint64_t done) { progress.update(done); }, a.threads);
  progress.finish();  // the last figure shown, then the line erased: what follows starts clean
  if (!st) return report_archive_error(st.error(), a.archive);
  if (!quiet())
    std::fprintf(stderr,
                 "%s: sound: %llu games in %llu blocks, every checksum and every game checked\n",
                 a.archive == "-" ? "<stdin>" : a.archive.c_str(), ull((*archive)->game_count()),
                 ull((*archive)->block_count()));
  return kOk;
}

}  // namespace

Run declare_info(CLI::App& cmd) {
  auto a = std::make_shared<InfoArgs>();
  cmd.footer(
      "Games, blocks, bytes by section, bits per ply of moves, format versions. Reads every "
      "block's checksum and its moves and verbatim games; decodes no game (verify does).");
  cmd.add_option("ARCHIVE", a->archive, "the archive to describe (- for standard input)")->required();
  cmd.add_flag("--json", a->json, "the same figures as one JSON object");
  return [a] { return info(*a); };
}

Run declare_verify(CLI::App& cmd) {
  auto a = std::make_shared<VerifyArgs>();
  cmd.footer(
      "Checks every checksum and decodes every game; exit 0 only if all is sound, 3 otherwise.");
  cmd.add_option("ARCHIVE", a->archive, "the archive to check (- for standard input)")->required();
  add_threads(cmd, a->threads, "decode blocks");
  return [a] { return verify(*a); };
}

}  // namespace pgnarc::cli
