// The destination of an output, private to libeom: all or nothing for regular files.
#pragma once

#include <iosfwd>
#include <string>

namespace eom::detail {

// The destination of an output: a regular file is written to a temporary next to it and renamed
// over it by commit() (all or nothing); a stream, device or fifo is written directly.
class OutputFile {
 public:
  OutputFile() = default;
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;
  ~OutputFile();

  void to_stream(std::ostream& out, std::string name);

  // Writes go to a new temporary next to the file they replace, renamed over it by commit():
  // through a symlink to its target, keeping an existing file's permissions. Devices, fifos and
  // the /dev and /proc names of descriptors (/dev/stdout) are written directly: there is nothing
  // to replace, and renaming over the file behind /dev/stdout would cut it from the shell.
  void to_file(const std::string& path);

  void write(const std::string& bytes);
  void flush();
  void commit();

 private:
  std::ostream* stream_ = nullptr;
  int fd_ = -1;
  std::string target_, temporary_;
  int pending_ = -1;  // slot in the registry of temporaries
  bool committed_ = false;
};

}  // namespace eom::detail
