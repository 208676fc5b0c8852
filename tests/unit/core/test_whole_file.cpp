// The one reader of whole files: regular files and pipes up to a size, devices refused before a
// byte is read (/dev/zero never ends), every refusal naming the file.

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include <catch2/catch.hpp>

#include <eom/core/errors.hpp>

#include "core/whole_file.hpp"
#include "scratch.hpp"

using eom::InputError;
using eom::detail::read_whole_file;
using eom::test::scratch_path;

namespace {

// why read_whole_file refused `path` (or "(read N bytes)")
std::string whole_file_refusal(const std::string& path, std::uintmax_t max_bytes) {
  try {
    return "(read " + std::to_string(read_whole_file(path, max_bytes, "a test file").size()) +
           " bytes)";
  } catch (const InputError& e) {
    return e.what();
  }
}

}  // namespace

TEST_CASE("whole files: a regular file up to its bound, its bytes as they are", "[whole_file]") {
  const std::string path = scratch_path("bytes.bin");
  const std::string bytes("a\0b\r\n\xff", 6);
  std::ofstream(path, std::ios::binary) << bytes;
  CHECK(read_whole_file(path, 6, "a test file") == bytes);
  CHECK(whole_file_refusal(path, 5) ==
        path + ": larger than 5 bytes, the most eom reads of a test file");
  CHECK(whole_file_refusal(scratch_path("none"), 100) ==
        scratch_path("none") + ": cannot open the file");
  const std::string directory = scratch_path("");
  CHECK(whole_file_refusal(directory, 100) == directory + ": is a directory, not a test file");
}

TEST_CASE("whole files: devices are refused at once, whatever their name", "[whole_file]") {
  // /dev/zero and /dev/urandom would fill any buffer: refused before a byte is read
  for (const std::string device : {"/dev/zero", "/dev/urandom", "/dev/null"}) {
    CHECK(whole_file_refusal(device, std::uintmax_t{1} << 40) ==
          device +
              ": is neither a regular file nor a pipe (a device may never end): not read as a "
              "test file");
  }
  // a link to one is the device
  const std::string link = scratch_path("zero.urdf");
  std::filesystem::create_symlink("/dev/zero", link);
  CHECK(whole_file_refusal(link, 100).find(link + ": is neither a regular file nor a pipe") == 0);
}

TEST_CASE("whole files: a pipe is read to its end, or to the bound", "[whole_file]") {
  for (const std::uintmax_t bound : {std::uintmax_t{1} << 20, std::uintmax_t{100000}}) {
    int ends[2];
    REQUIRE(::pipe(ends) == 0);
    // 300,000 bytes, more than a pipe buffers: the writer waits for the reader
    std::thread writer([&] {
      const std::string block(1000, 'x');
      for (int k = 0; k < 300; ++k) {
        if (::write(ends[1], block.data(), block.size()) < 0) break;
      }
      ::close(ends[1]);
    });
    const std::string path = "/dev/fd/" + std::to_string(ends[0]);
    const std::string got = whole_file_refusal(path, bound);
    // drained, so that the writer ends by the reader's end of file rather than a SIGPIPE
    char rest[4096];
    while (::read(ends[0], rest, sizeof rest) > 0) {
    }
    ::close(ends[0]);
    writer.join();
    CHECK(got == (bound > 300000
                      ? "(read 300000 bytes)"
                      : path + ": larger than 100000 bytes, the most eom reads of a test file"));
  }
}
