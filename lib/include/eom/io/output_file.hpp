/// The destination of one output file (a table, a summary): the rules of doc/files.md "What eom
/// never does", in one place. A regular file (or a name that does not exist yet) is written to a
/// temporary next to it and renamed over it by commit(): all or nothing. Only real device nodes,
/// FIFOs and sockets are written in place, and the names of descriptors (/dev/stdout,
/// /dev/stderr, /dev/fd/N, /proc/self/fd/N) are written through the descriptor the process
/// already has, so a shell's `>> log` appends.
#pragma once

#include <atomic>
#include <iosfwd>
#include <string>

namespace eom {

/// The descriptor a path names (/dev/stdin 0, /dev/stdout 1, /dev/stderr 2, /dev/fd/N,
/// /proc/self/fd/N, /proc/thread-self/fd/N, /proc/<this process>/fd/N), else -1.
int descriptor_named(const std::string& path);

/// The file whose contents writes to `path` replace: symlinks in the last component followed
/// (a dangling link names the file it would create), the rest of the path as given.
std::string link_target(const std::string& path);

class OutputFile {
 public:
  OutputFile() = default;
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;
  /// An output never committed (an error, a failed run) leaves nothing: the temporary is removed.
  ~OutputFile();

  void to_stream(std::ostream& out, std::string name);

  /// Where writes to `path` go: a descriptor it names (written through, never truncated); a
  /// device, FIFO or socket (written in place); otherwise a new temporary next to the file they
  /// replace (through symlinks, dangling ones included, to their target; keeping an existing
  /// file's permissions), renamed over it by commit(). Throws InputError for a directory.
  void to_file(const std::string& path);

  void write(const std::string& bytes);
  void flush();
  /// Everything that can fail except the move into place: flush and close. A group of outputs
  /// that is one result finishes all of them before it commits any.
  void finish();
  /// finish(), then the temporary goes into place.
  void commit();
  /// finish(), then the temporary goes to `path` (in the same directory) instead, never replacing
  /// an existing file (InputError then, and nothing is left). Only for a temporary
  /// (written_in_place() false).
  void commit_as(const std::string& path);
  /// Written in place (a stream, descriptor, device, FIFO or socket): nothing to move.
  bool written_in_place() const { return temporary_.empty(); }
  /// The file the output replaces (the target of a link), or the stream's name.
  const std::string& target() const { return target_; }

 private:
  std::ostream* stream_ = nullptr;
  int fd_ = -1;
  std::string target_, temporary_;
  std::atomic<const char*>* pending_ = nullptr;  // slot in the registry of temporaries
  bool finished_ = false, committed_ = false;
};

/// Remove the temporaries of every uncommitted output. Async-signal-safe: for the handlers of the
/// signals that end the process, so an interrupted run leaves nothing behind. Any number of
/// outputs may be pending.
void remove_pending_outputs();

}  // namespace eom
