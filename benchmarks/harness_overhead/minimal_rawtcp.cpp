// The smallest honest TCP ping-pong: the reference the rawtcp driver (with
// the whole harness around it) is compared against. No harness code on
// purpose: if the harness costs anything, this loop does not pay it.
//
//   minimal_rawtcp SERVER_CPU CLIENT_CPU SAMPLES WARMUP OUTPUT
//
// Forks a server and a client pinned to the given CPUs over 127.0.0.1 with
// TCP_NODELAY; each sample is one 8-byte echo timed with clock_gettime; the
// samples (ns) are written one per line to OUTPUT after the loop.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sched.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <vector>

namespace {

[[noreturn]] void die(const char* what) {
  std::perror(what);
  std::exit(1);
}

void pin(int cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  if (sched_setaffinity(0, sizeof set, &set) != 0) die("sched_setaffinity");
}

void nodelay(int fd) {
  const int one = 1;
  if (setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one) != 0) die("TCP_NODELAY");
}

std::uint64_t now_ns() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<std::uint64_t>(ts.tv_sec) * 1'000'000'000u +
         static_cast<std::uint64_t>(ts.tv_nsec);
}

// Exactly n bytes (loops over partial transfers, as any correct client must).
bool recv_all(int fd, void* p, std::size_t n) {
  char* c = static_cast<char*>(p);
  while (n > 0) {
    const ssize_t r = recv(fd, c, n, 0);
    if (r == 0) return false;
    if (r < 0) {
      if (errno == EINTR) continue;
      die("recv");
    }
    c += r;
    n -= static_cast<std::size_t>(r);
  }
  return true;
}

void send_all(int fd, const void* p, std::size_t n) {
  const char* c = static_cast<const char*>(p);
  while (n > 0) {
    const ssize_t r = send(fd, c, n, MSG_NOSIGNAL);
    if (r < 0) {
      if (errno == EINTR) continue;
      die("send");
    }
    c += r;
    n -= static_cast<std::size_t>(r);
  }
}

void serve(int listener) {
  const int fd = accept(listener, nullptr, nullptr);
  if (fd < 0) die("accept");
  nodelay(fd);
  std::uint64_t v;
  while (recv_all(fd, &v, sizeof v)) send_all(fd, &v, sizeof v);
  close(fd);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 6) {
    std::fprintf(stderr, "usage: %s SERVER_CPU CLIENT_CPU SAMPLES WARMUP OUTPUT\n", argv[0]);
    return 2;
  }
  const int server_cpu = std::atoi(argv[1]);
  const int client_cpu = std::atoi(argv[2]);
  const long samples = std::atol(argv[3]);
  const long warmup = std::atol(argv[4]);

  const int listener = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof addr;
  if (bind(listener, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) die("bind");
  if (listen(listener, 1) != 0) die("listen");
  if (getsockname(listener, reinterpret_cast<sockaddr*>(&addr), &len) != 0) die("getsockname");

  const pid_t server = fork();
  if (server < 0) die("fork");
  if (server == 0) {
    pin(server_cpu);
    serve(listener);
    _exit(0);
  }
  close(listener);

  pin(client_cpu);
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) die("connect");
  nodelay(fd);

  std::vector<std::uint64_t> out;
  out.reserve(static_cast<std::size_t>(samples));
  std::uint64_t echo;
  for (long i = 0; i < warmup; ++i) {
    const std::uint64_t t = now_ns();
    send_all(fd, &t, sizeof t);
    if (!recv_all(fd, &echo, sizeof echo)) die("server closed");
  }
  for (long i = 0; i < samples; ++i) {
    const std::uint64_t t0 = now_ns();
    send_all(fd, &t0, sizeof t0);
    if (!recv_all(fd, &echo, sizeof echo)) die("server closed");
    out.push_back(now_ns() - t0);
  }
  close(fd);
  waitpid(server, nullptr, 0);

  FILE* f = std::fopen(argv[5], "w");
  if (f == nullptr) die(argv[5]);
  for (const auto s : out) std::fprintf(f, "%llu\n", static_cast<unsigned long long>(s));
  std::fclose(f);
  return 0;
}
