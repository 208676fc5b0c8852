// Files read whole (robot files, MJCF includes, meshes, JSON models, friction files): one reader,
// bounded in size and in what it reads. Tables are not read whole (io/input.hpp bounds a row).
// Private to libeom; the limits are documented in doc/files.md.
#pragma once

#include <cstdint>
#include <string>

namespace eom::detail {

/// The most bytes of a robot file (URDF, MJCF, JSON model), of each file an MJCF file includes,
/// and of a friction file: 64 MiB, hundreds of times the largest real ones (a humanoid's URDF
/// is well under 1 MiB).
constexpr std::uintmax_t kMaxModelFileBytes = std::uintmax_t{64} << 20;

/// The bytes of the file at `path`, or of stdin for "-" (named "<stdin>"), for a file of kind
/// `kind` ("a robot file", "a mesh": the messages say it). Only a regular file or a pipe is read
/// (stdin also from a terminal): a device never ends (/dev/zero, /dev/urandom), so it is refused
/// before a byte is read, as is a regular file larger than max_bytes; a pipe is read up to
/// max_bytes, then refused. Throws InputError naming the file.
std::string read_whole_file(const std::string& path, std::uintmax_t max_bytes, const char* kind);

}  // namespace eom::detail
