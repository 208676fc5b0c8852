#include "io/input.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <istream>

#include "eom/core/errors.hpp"
#include "io/table_detail.hpp"

namespace eom::detail {

std::string Input::too_long() {
  return "longer than " + std::to_string(kMaxRow >> 20) +
         " MiB, the most one row of a table may take";
}

Input::~Input() {
  if (owned_) ::close(fd_);
}

bool Input::fill() {
  if (eof_) return false;
  if (pos_ > 0) {
    std::memmove(buffer_.data(), buffer_.data() + pos_, end_ - pos_);
    base_ += static_cast<long long>(pos_);
    end_ -= pos_;
    pos_ = 0;
  }
  if (end_ == buffer_.size()) {  // one row or value fills it
    if (end_ > kMaxRow) throw InputError(name_, 0, 0, "a row " + too_long());
    buffer_.resize(std::min(2 * buffer_.size(), kMaxRow + kReadChunk));
  }
  const size_t got = read_some(buffer_.data() + end_, buffer_.size() - end_);
  if (got == 0) eof_ = true;
  end_ += got;
  return got > 0;
}

size_t Input::read_some(char* out, size_t n) {
  if (stream_) {
    stream_->read(out, static_cast<std::streamsize>(n));
    if (stream_->bad()) throw InputError(name_, 0, 0, "cannot read");
    return static_cast<size_t>(stream_->gcount());
  }
  for (;;) {
    // read(2) returns what a pipe has, so rows stream through without waiting for a full chunk
    const ssize_t got = ::read(fd_, out, n);
    if (got >= 0) return static_cast<size_t>(got);
    if (errno == EBADF && fd_ == STDIN_FILENO) {
      throw InputError(name_, 0, 0, "cannot read: stdin is closed");
    }
    if (errno != EINTR) throw InputError(name_, 0, 0, system_message("cannot read"));
  }
}

}  // namespace eom::detail
