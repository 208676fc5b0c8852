#include "core/whole_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "eom/core/errors.hpp"

namespace eom::detail {
namespace {

// closes the descriptor it opened, on every path out
struct Descriptor {
  int fd;
  bool owned;
  ~Descriptor() {
    if (owned && fd >= 0) ::close(fd);
  }
};

// why a read of `name` failed, from errno
InputError read_failure(const std::string& name, bool from_stdin) {
  if (errno == EBADF && from_stdin) return InputError(name, 0, 0, "cannot read: stdin is closed");
  return InputError(name, 0, 0, std::string("cannot read: ") + std::strerror(errno));
}

std::string too_large(std::uintmax_t max_bytes, const char* kind) {
  const bool mebibytes = max_bytes % (std::uintmax_t{1} << 20) == 0;
  return "larger than " + std::to_string(mebibytes ? max_bytes >> 20 : max_bytes) +
         (mebibytes ? " MiB" : " bytes") + ", the most eom reads of " + kind;
}

// a device (/dev/zero, /dev/urandom, a tape) or a socket: never read as a file
void check_kind(const struct stat& st, const std::string& name, bool terminal,
                std::uintmax_t max_bytes, const char* kind) {
  if (S_ISDIR(st.st_mode)) throw InputError(name, 0, 0, std::string("is a directory, not ") + kind);
  if (!S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode) && !terminal) {
    throw InputError(name, 0, 0,
                     std::string("is neither a regular file nor a pipe (a device may never end): "
                                 "not read as ") +
                         kind);
  }
  if (S_ISREG(st.st_mode) && static_cast<std::uintmax_t>(st.st_size) > max_bytes) {
    throw InputError(name, 0, 0, too_large(max_bytes, kind));
  }
}

}  // namespace

std::string read_whole_file(const std::string& path, std::uintmax_t max_bytes, const char* kind) {
  const bool from_stdin = path == "-";
  const std::string name = from_stdin ? "<stdin>" : path;
  Descriptor in{from_stdin ? STDIN_FILENO : ::open(path.c_str(), O_RDONLY | O_CLOEXEC),
                !from_stdin};
  if (in.fd < 0) throw InputError(name, 0, 0, "cannot open the file");
  struct stat st;
  if (::fstat(in.fd, &st) != 0) throw read_failure(name, from_stdin);
  check_kind(st, name, from_stdin && ::isatty(in.fd), max_bytes, kind);
  std::string text;
  if (S_ISREG(st.st_mode)) text.reserve(static_cast<size_t>(st.st_size));
  char chunk[1 << 16];
  for (;;) {
    // read(2), not a std::istream, whose buffer throws std::ios_base::failure when stdin is closed
    const ssize_t got = ::read(in.fd, chunk, sizeof chunk);
    if (got == 0) break;
    if (got < 0) {
      if (errno == EINTR) continue;
      throw read_failure(name, from_stdin);
    }
    // a file that grows while it is read, or a pipe, is bounded alike
    if (text.size() + static_cast<size_t>(got) > max_bytes) {
      throw InputError(name, 0, 0, too_large(max_bytes, kind));
    }
    text.append(chunk, static_cast<size_t>(got));
  }
  return text;
}

}  // namespace eom::detail
