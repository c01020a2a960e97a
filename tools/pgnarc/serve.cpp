// pgnarc serve: a read-only web server over archives (cpp-httplib, Debian's libcpp-httplib-dev):
// the pages of web/ (search, game, explorer), compiled into the program, and the JSON API of
// serve_api.cpp that they read.
#include <pthread.h>
#include <signal.h>
#include <sys/socket.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <httplib.h>

#include "commands.h"
#include "console.h"
#include "serve.h"

namespace pgnarc::cli {
namespace {

struct ServeArgs {
  std::vector<std::string> archives;
  std::string bind = "127.0.0.1";
  int port = 8080;
  std::string encoding;  // --encoding: iconv's name, "" for UTF-8
};

bool loopback(const std::string& host) {
  return host == "localhost" || host == "::1" || host.rfind("127.", 0) == 0;
}

// What every answer carries: no sniffing of types, scripts and styles from this server only.
constexpr const char* kPagePolicy =
    "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; object-src 'none'; "
    "frame-ancestors 'none'";
// The share page that needs no server (tools/share_page) is one file whose scripts are inline and
// whose decoder is WebAssembly, fetched from a data: URL: its policy allows those, and nothing from
// elsewhere.
constexpr const char* kSharePagePolicy =
    "default-src 'none'; script-src 'unsafe-inline' 'wasm-unsafe-eval'; style-src 'unsafe-inline'; img-src data:; "
    "connect-src data:";
void secure(httplib::Response& res, const char* policy = kPagePolicy) {
  res.set_header("X-Content-Type-Options", "nosniff");
  res.set_header("Content-Security-Policy", policy);
  res.set_header("Referrer-Policy", "no-referrer");
}

int serve(const ServeArgs& a) {
  set_text_encoding(a.encoding);
  std::vector<std::unique_ptr<ServedArchive>> archives;
  std::uint64_t games = 0;
  for (const std::string& path : a.archives) {
    auto s = ServedArchive::open(path);
    if (!s) return report_archive_error(s.error(), path);
    games += (*s)->games();
    archives.push_back(std::move(*s));
  }
  std::map<std::string, const WebFile*, std::less<>> files;
  for (const WebFile& f : web_files()) files.emplace(f.path, &f);
  auto page = [&files](const char* name) {
    const WebFile* f = files.at(name);
    return [f](const httplib::Request&, httplib::Response& res) {
      secure(res);
      res.set_content(f->bytes.data(), f->bytes.size(), f->type);
    };
  };

  httplib::Server server;
  // The listening socket: SO_REUSEADDR, not the library's default SO_REUSEPORT (which would let a
  // second server share a port in use); its descriptor kept to lengthen the queue of connections.
  int listener = -1;
  server.set_socket_options([&listener](int sock) {
    int yes = 1;
    setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    listener = sock;
  });
  // Connections served at once (each on a thread of its own, for as long as it stays open); more
  // wait in the queue.
  server.new_task_queue = [] { return new httplib::ThreadPool(64); };
  server.set_read_timeout(5, 0);
  server.set_write_timeout(10, 0);
  server.set_keep_alive_timeout(2);
  server.set_payload_max_length(4096);
  server.Get("/", page("index.html"));
  server.Get("/explorer", page("explorer.html"));
  server.Get("/favicon.ico", page("favicon.svg"));
  server.Get("/share", [f = files.at("share.html")](const httplib::Request&, httplib::Response& res) {
    secure(res, kSharePagePolicy);
    res.set_content(f->bytes.data(), f->bytes.size(), f->type);
  });
  server.Get(R"(/game/\d{1,19})", page("game.html"));
  server.Get(R"(/s/[A-Za-z0-9_-]{1,1000})", page("game.html"));
  server.Get(R"(/assets/(.{1,200}))", [&files](const httplib::Request& req, httplib::Response& res) {
    secure(res);
    // Only the files compiled in are found: a path that leaves assets/ names none of them.
    auto it = files.find(std::string_view(req.matches[1].str()));
    if (it == files.end()) {
      res.status = 404;
      res.set_content("no such file\n", "text/plain; charset=utf-8");
      return;
    }
    res.set_header("Cache-Control", "max-age=600");
    res.set_content(it->second->bytes.data(), it->second->bytes.size(), it->second->type);
  });
  server.Get(R"(/api/([a-z]{1,20}))", [&archives](const httplib::Request& req, httplib::Response& res) {
    secure(res);
    res.set_header("Cache-Control", "no-store");
    const Params params(req.params.begin(), req.params.end());
    ApiReply reply = api_request(archives, req.matches[1].str(), params);
    res.status = reply.status;
    res.set_content(std::move(reply.body), reply.type);
  });
  server.set_error_handler([](const httplib::Request& req, httplib::Response& res) {
    if (!res.body.empty()) return;
    secure(res);
    const std::string what = res.status == 404   ? "no page " + req.path
                             : res.status == 413 ? "the request is too large"
                             : res.status == 414 ? "the address is too long"
                                                 : "the request cannot be served (HTTP " + std::to_string(res.status) + ")";
    res.set_content(what + "\n", "text/plain; charset=utf-8");
  });
  server.set_exception_handler([](const httplib::Request&, httplib::Response& res, std::exception_ptr) {
    secure(res);
    res.status = 500;
    res.set_content("{\"error\": \"internal error\"}", "application/json; charset=utf-8");
  });

  if (!loopback(a.bind) && !quiet())
    std::fprintf(stderr,
                 "pgnarc: warning: serving on %s: anyone who can reach this machine on that address can read "
                 "the archives (and hold its 64 connections; put a reverse proxy in front for the open "
                 "internet)\n",
                 a.bind.c_str());
  const int port = a.port == 0 ? server.bind_to_any_port(a.bind) : (server.bind_to_port(a.bind, a.port) ? a.port : -1);
  if (port <= 0)
    return report(io_error("cannot listen on " + a.bind + " port " + std::to_string(a.port) +
                           " (in use, or an address this machine does not have)"));
  // Connections waiting to be accepted: the library listens with a queue of 5, which drops the
  // rest of a burst (their clients retry a second or more later).
  if (listener >= 0) ::listen(listener, 512);

  // Ctrl-C (SIGINT) and SIGTERM stop the server: a thread waits for them, as every other thread
  // (the server's workers, started after this) keeps them blocked. Where the server ends on its
  // own, the thread is woken by a SIGTERM of its own and finds `ended` set.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);
  std::atomic<bool> ended = false;
  std::thread stopper([&server, &ended, stop_signals] {
    int signal = 0;
    sigwait(&stop_signals, &signal);
    // A signal that comes before the server runs would find nothing to stop.
    while (!ended && !server.is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    if (!ended) server.stop();
  });

  const std::string host = a.bind.find(':') != std::string::npos ? "[" + a.bind + "]" : a.bind;
  std::printf("pgnarc serve: http://%s:%d/ (%llu games in %zu archive%s); Ctrl-C stops\n", host.c_str(), port,
              static_cast<unsigned long long>(games), archives.size(), archives.size() == 1 ? "" : "s");
  std::fflush(stdout);
  const bool listened = server.listen_after_bind();
  ended = true;
  pthread_kill(stopper.native_handle(), SIGTERM);  // wakes the thread if no signal came
  stopper.join();
  if (!listened) return report(io_error("the server stopped on an error"));
  return kOk;
}

}  // namespace

Run declare_serve(CLI::App& cmd) {
  auto a = std::make_shared<ServeArgs>();
  cmd.footer(
      "Serves the archives read-only to a web browser: a search of their games, each game on a board "
      "(keys step through it) with its evaluation and clock graph, an opening explorer, and share "
      "links (/s/TOKEN); and the JSON API under /api/ the pages read (README.md, \"Serving an "
      "archive\"). The pages need no network: their libraries are part of pgnarc.");
  cmd.add_option("ARCHIVE", a->archives, "the archives to serve (the first is archive 0 of the API)")
      ->required()
      ->check(CLI::ExistingFile);
  cmd.add_option("--bind", a->bind,
                 "the address to listen on (default 127.0.0.1, this machine only; another address lets "
                 "other machines read the archives, and pgnarc warns)")
      ->type_name("ADDR");
  add_number(cmd, "--port", a->port, 0, 65535, "the port to listen on (0: a free one, printed on start)");
  cmd.add_option_function<std::string>(
         "--encoding", [a](const std::string& e) { a->encoding = e == "gb18030" ? "GB18030" : "BIG5"; },
         "the archives' text is in this encoding (Chinese PGN files: gb18030, which GBK and GB2312 are parts "
         "of, or big5): the pages show it, and searches look for names in it, as find --names-in does")
      ->type_name("ENCODING")
      ->check(CLI::IsMember({"gb18030", "big5"}));
  return [a] { return serve(*a); };
}

}  // namespace pgnarc::cli
