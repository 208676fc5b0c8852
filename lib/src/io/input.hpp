// The bytes of a table being read, private to libeom.
#pragma once

#include <cstddef>
#include <iosfwd>
#include <string>
#include <utility>
#include <vector>

namespace eom::detail {

// Bytes from a file descriptor or a std::istream, read in large chunks into one buffer whose
// unread part stays contiguous, so lines and tokens are parsed in place.
class Input {
 public:
  static constexpr size_t kReadChunk = size_t{1} << 20;
  /// The most bytes a reader holds at once for one row (a CSV record, a JSON row object), one
  /// value or one string: longer ones are input errors, so that memory stays bounded (the buffer
  /// never grows past kMaxRow + kReadChunk). Documented in doc/tables.md.
  static constexpr size_t kMaxRow = size_t{16} << 20;
  /// "longer than 16 MiB, the most one row of a table may take", for messages.
  static std::string too_long();

  Input(std::string name, int fd, bool owned)
      : name_(std::move(name)), fd_(fd), owned_(owned), buffer_(kReadChunk) {}
  Input(std::string name, std::istream& in)
      : name_(std::move(name)), stream_(&in), buffer_(kReadChunk) {}
  Input(const Input&) = delete;
  Input& operator=(const Input&) = delete;
  ~Input();

  const std::string& name() const { return name_; }
  const char* data() const { return buffer_.data() + pos_; }
  size_t available() const { return end_ - pos_; }
  void consume(size_t n) { pos_ += n; }
  /// Stream offset of data().
  long long offset() const { return base_ + static_cast<long long>(pos_); }

  /// Appends more bytes after the unread ones (which move to the front of the buffer, so
  /// pointers into it are invalidated); false at the end of the input. The unread bytes must be
  /// at most kMaxRow (callers check it first, to name the line).
  bool fill();

 private:
  size_t read_some(char* out, size_t n);

  std::string name_;
  int fd_ = -1;
  bool owned_ = false;
  std::istream* stream_ = nullptr;
  std::vector<char> buffer_;
  size_t pos_ = 0, end_ = 0;
  long long base_ = 0;
  bool eof_ = false;
};

}  // namespace eom::detail
