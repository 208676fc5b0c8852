#include "eom/io/output_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <iostream>
#include <utility>

#include "eom/core/errors.hpp"
#include "eom/io/table.hpp"
#include "io/table_detail.hpp"

namespace eom {

using detail::system_message;

namespace {

// How much of the output's name a temporary's name keeps, and the counter that makes it unique
// (modulo 10^6)
constexpr size_t kTemporaryNameBytes = 32;
constexpr unsigned kCounterLimit = 1000000;

// Temporaries of unfinished outputs, for remove_pending_outputs() in a signal handler, which may
// neither lock nor allocate: chunks of atomic slots, chained as they fill and never freed, so a
// batch may have any number of outputs pending (its finished tables wait for the summary).
struct PendingChunk {
  static constexpr int kSlots = 256;
  std::atomic<const char*> slots[kSlots] = {};
  std::atomic<PendingChunk*> next{nullptr};
};
PendingChunk first_chunk;

std::atomic<const char*>* register_pending_output(const char* path) {
  for (PendingChunk* chunk = &first_chunk;;) {
    for (auto& slot : chunk->slots) {
      const char* expected = nullptr;
      if (slot.compare_exchange_strong(expected, path)) return &slot;
    }
    PendingChunk* next = chunk->next.load();
    if (next == nullptr) {
      auto* fresh = new PendingChunk();
      if (chunk->next.compare_exchange_strong(next, fresh)) {
        next = fresh;
      } else {
        delete fresh;  // another thread chained one first: next is it
      }
    }
    chunk = next;
  }
}

void unregister_pending_output(std::atomic<const char*>*& slot) {
  if (slot) *slot = nullptr;
  slot = nullptr;
}

bool all_digits(const std::string& text) {
  return !text.empty() && text.find_first_not_of("0123456789") == std::string::npos;
}

}  // namespace

int descriptor_named(const std::string& path) {
  if (path == "/dev/stdin") return 0;
  if (path == "/dev/stdout") return 1;
  if (path == "/dev/stderr") return 2;
  const std::string prefixes[] = {"/dev/fd/", "/proc/self/fd/", "/proc/thread-self/fd/",
                                  "/proc/" + std::to_string(::getpid()) + "/fd/"};
  for (const std::string& prefix : prefixes) {
    if (path.compare(0, prefix.size(), prefix) != 0) continue;
    const std::string number = path.substr(prefix.size());
    if (all_digits(number) && number.size() < 9) return std::stoi(number);
  }
  return -1;
}

std::string link_target(const std::string& path) {
  std::string current = path;
  for (int hops = 0; hops < 40; ++hops) {  // 40: the kernel's limit (ELOOP)
    struct stat info;
    if (::lstat(current.c_str(), &info) != 0 || !S_ISLNK(info.st_mode)) return current;
    char buffer[PATH_MAX];
    const ssize_t n = ::readlink(current.c_str(), buffer, sizeof buffer);
    if (n <= 0 || n == static_cast<ssize_t>(sizeof buffer)) return current;
    std::string next(buffer, static_cast<size_t>(n));
    const size_t slash = current.find_last_of('/');
    if (next[0] != '/' && slash != std::string::npos) next = current.substr(0, slash + 1) + next;
    current = next;
  }
  return current;  // still a link: to_file refuses it
}

OutputFile::~OutputFile() {
  if (fd_ >= 0) ::close(fd_);
  if (!committed_ && !temporary_.empty()) ::unlink(temporary_.c_str());
  unregister_pending_output(pending_);
}

void OutputFile::to_stream(std::ostream& out, std::string name) {
  stream_ = &out;
  target_ = std::move(name);
}

void OutputFile::to_file(const std::string& path) {
  target_ = path;
  // /dev/stdout and the like: the descriptor the shell opened, with its offset and O_APPEND
  // (opening the name again would truncate what `>> log` appends to)
  if (const int descriptor = descriptor_named(path); descriptor >= 0) {
    fd_ = ::fcntl(descriptor, F_DUPFD_CLOEXEC, 3);
    if (fd_ < 0) throw InputError(path, 0, 0, system_message("cannot write to the descriptor"));
    return;
  }
  target_ = link_target(path);
  struct stat info;
  if (::lstat(target_.c_str(), &info) == 0 && S_ISLNK(info.st_mode)) {
    throw InputError(path, 0, 0, "too many levels of symbolic links");
  }
  const bool exists = ::stat(target_.c_str(), &info) == 0;
  if (exists && S_ISDIR(info.st_mode)) throw InputError(path, 0, 0, "is a directory");
  if (exists && !S_ISREG(info.st_mode)) {
    // a device, FIFO or socket: nothing to replace, written in place
    fd_ = ::open(target_.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd_ < 0) throw InputError(path, 0, 0, system_message("cannot open"));
    return;
  }
  // unique per process and per writer, created exclusively: batch threads never share one
  static std::atomic<unsigned> counter{0};
  const size_t slash = target_.find_last_of('/');
  const std::string directory = slash == std::string::npos ? "" : target_.substr(0, slash + 1);
  // short whatever the name's length (a name of 255 bytes, the most a directory entry holds, must
  // work): the name's first bytes say whose it is, the process and counter keep it unique
  const std::string name = target_.substr(directory.size());
  const std::string base = directory + "." + name.substr(0, kTemporaryNameBytes) + ".eom-" +
                           std::to_string(::getpid()) + "-";
  for (int attempt = 0; fd_ < 0 && attempt < 100; ++attempt) {
    temporary_ = base + std::to_string(counter++ % kCounterLimit) + ".tmp";
    fd_ = ::open(temporary_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd_ < 0 && errno != EEXIST) break;
  }
  if (fd_ < 0) {
    const std::string message = system_message("cannot create");
    temporary_.clear();
    throw InputError(path, 0, 0, message);
  }
  pending_ = register_pending_output(temporary_.c_str());
  if (exists) (void)::fchmod(fd_, info.st_mode & 07777);
}

void OutputFile::write(const std::string& bytes) {
  if (stream_) {
    if (!stream_->write(bytes.data(), static_cast<std::streamsize>(bytes.size()))) {
      throw InputError(target_, 0, 0, "cannot write");
    }
    return;
  }
  for (size_t done = 0; done < bytes.size();) {
    const ssize_t n = ::write(fd_, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw InputError(target_, 0, 0, system_message("cannot write"));
    done += static_cast<size_t>(n);
  }
}

void OutputFile::flush() {
  if (stream_ && !stream_->flush()) throw InputError(target_, 0, 0, "cannot write");
}

void OutputFile::finish() {
  if (finished_) return;
  flush();
  if (fd_ >= 0) {
    const int fd = fd_;
    fd_ = -1;
    if (::close(fd) != 0) throw InputError(target_, 0, 0, system_message("cannot write"));
  }
  finished_ = true;
}

void OutputFile::commit() {
  finish();
  if (!temporary_.empty() && std::rename(temporary_.c_str(), target_.c_str()) != 0) {
    throw InputError(target_, 0, 0, system_message("cannot move the finished file into place"));
  }
  committed_ = true;
  unregister_pending_output(pending_);
}

void OutputFile::commit_as(const std::string& path) {
  finish();
  if (temporary_.empty()) throw InputError(target_, 0, 0, "written in place: cannot be moved");
  // no rename(): it would replace a file that exists; a hard link fails with EEXIST instead
  if (::renameat2(AT_FDCWD, temporary_.c_str(), AT_FDCWD, path.c_str(), RENAME_NOREPLACE) != 0) {
    if (errno != EINVAL && errno != ENOSYS) {
      throw InputError(path, 0, 0, system_message("cannot keep the rows there"));
    }
    if (::link(temporary_.c_str(), path.c_str()) != 0) {
      throw InputError(path, 0, 0, system_message("cannot keep the rows there"));
    }
    ::unlink(temporary_.c_str());
  }
  committed_ = true;
  unregister_pending_output(pending_);
}

void remove_pending_outputs() {
  for (PendingChunk* chunk = &first_chunk; chunk; chunk = chunk->next.load()) {
    for (auto& slot : chunk->slots) {
      if (const char* path = slot.load()) ::unlink(path);
    }
  }
}

void write_file(const std::string& path, const std::string& contents) {
  OutputFile file;
  if (path == "-") {
    file.to_stream(std::cout, "<stdout>");
  } else {
    file.to_file(path);
  }
  file.write(contents);
  file.commit();
}

}  // namespace eom
