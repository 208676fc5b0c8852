#include "io/output_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <utility>

#include "eom/core/errors.hpp"
#include "eom/io/table.hpp"
#include "io/table_detail.hpp"

namespace eom {
namespace detail {
namespace {

// Temporaries of unfinished outputs, for remove_pending_outputs() in a signal handler: fixed
// slots of atomic pointers, since a handler may neither lock nor allocate.
constexpr int kPendingSlots = 256;
std::atomic<const char*> pending_outputs[kPendingSlots];

int register_pending_output(const char* path) {
  for (int k = 0; k < kPendingSlots; ++k) {
    const char* expected = nullptr;
    if (pending_outputs[k].compare_exchange_strong(expected, path)) return k;
  }
  return -1;  // more unfinished outputs than slots: those are not cleaned up on a signal
}

void unregister_pending_output(int slot) {
  if (slot >= 0) pending_outputs[slot] = nullptr;
}

}  // namespace

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
  struct stat info;
  const bool exists = ::stat(path.c_str(), &info) == 0;
  if ((exists && !S_ISREG(info.st_mode)) || path.rfind("/dev/", 0) == 0 ||
      path.rfind("/proc/", 0) == 0) {
    fd_ = ::open(path.c_str(), O_WRONLY | O_CLOEXEC | (exists ? 0 : O_CREAT | O_TRUNC), 0666);
    if (fd_ < 0) throw InputError(path, 0, 0, system_message("cannot open"));
    if (exists && S_ISREG(info.st_mode)) (void)::ftruncate(fd_, 0);
    return;
  }
  if (exists) {
    if (char* real = ::realpath(path.c_str(), nullptr)) {
      target_ = real;
      std::free(real);
    }
  }
  // unique per process and per writer, created exclusively: batch threads never share one
  static std::atomic<unsigned> counter{0};
  const size_t slash = target_.find_last_of('/');
  const std::string directory = slash == std::string::npos ? "" : target_.substr(0, slash + 1);
  const std::string base = directory + "." + target_.substr(directory.size()) + ".eom-" +
                           std::to_string(::getpid()) + "-";
  for (int attempt = 0; fd_ < 0 && attempt < 100; ++attempt) {
    temporary_ = base + std::to_string(counter++) + ".tmp";
    fd_ = ::open(temporary_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd_ < 0 && errno != EEXIST) break;
  }
  if (fd_ < 0) {
    const std::string message = system_message("cannot create");
    temporary_.clear();
    throw InputError(path, 0, 0, message);
  }
  if (exists) (void)::fchmod(fd_, info.st_mode & 07777);
  pending_ = register_pending_output(temporary_.c_str());
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

void OutputFile::commit() {
  flush();
  if (stream_) {
    committed_ = true;
    return;
  }
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0) throw InputError(target_, 0, 0, system_message("cannot write"));
  if (!temporary_.empty() && std::rename(temporary_.c_str(), target_.c_str()) != 0) {
    throw InputError(target_, 0, 0, system_message("cannot move the finished file into place"));
  }
  committed_ = true;
  unregister_pending_output(pending_);
  pending_ = -1;
}

}  // namespace detail

void remove_pending_outputs() {
  for (auto& slot : detail::pending_outputs) {
    if (const char* path = slot.load()) ::unlink(path);
  }
}

void write_file(const std::string& path, const std::string& contents) {
  detail::OutputFile file;
  if (path == "-") {
    file.to_stream(std::cout, "<stdout>");
  } else {
    file.to_file(path);
  }
  file.write(contents);
  file.commit();
}

}  // namespace eom
