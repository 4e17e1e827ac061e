#pragma once
/// \file npy_file.hpp
/// The file side of .npy and .npz: a C file that closes itself, a bounded
/// reader of a byte range that names the path and offset of any failure
/// (io_error), a writer, and an output that reaches its target name only
/// when complete (written to "path.tmp-XXXXXXXX", then renamed).
#include <atomic>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <string>

#include "../core/error.hpp"
#include "zip.hpp"

namespace sinter::detail {

/// An open C file, closed on destruction.
struct c_file {
  std::FILE* f = nullptr;
  c_file() = default;
  c_file(const c_file&) = delete;
  c_file& operator=(const c_file&) = delete;
  ~c_file() {
    if (f) std::fclose(f);
  }
};

/// 64-bit seek and tell (long is 32 bits on Windows).
inline bool file_seek(std::FILE* f, std::uint64_t pos) {
#ifdef _WIN32
  return _fseeki64(f, static_cast<long long>(pos), SEEK_SET) == 0;
#else
  return fseeko(f, static_cast<off_t>(pos), SEEK_SET) == 0;
#endif
}
/// The size of an open file, or false.
inline bool file_size(std::FILE* f, std::uint64_t& size) {
#ifdef _WIN32
  if (_fseeki64(f, 0, SEEK_END) != 0) return false;
  const long long n = _ftelli64(f);
#else
  if (fseeko(f, 0, SEEK_END) != 0) return false;
  const off_t n = ftello(f);
#endif
  if (n < 0) return false;
  size = static_cast<std::uint64_t>(n);
  return file_seek(f, 0);
}

/// "<what>: <path>: <problem>; <remedy>" as an io_error.
[[noreturn]] inline void throw_io(const char* what, const std::string& path, const std::string& problem,
                                  const char* remedy) {
  throw io_error(std::string(what) + ": " + path + ": " + problem + "; " + remedy);
}

/// Opens `path` for reading (io_error naming the system's reason).
inline void open_for_reading(c_file& file, const std::string& path, const char* what) {
  file.f = std::fopen(path.c_str(), "rb");
  if (!file.f) throw_io(what, path, std::string("cannot open: ") + std::strerror(errno), "check the path");
}

/// Reads the bytes [pos, end) of an open file in order; any byte missing is
/// an io_error naming the path and the offset. Keeps a CRC-32 when asked.
struct byte_source {
  std::FILE* f;
  const std::string& path;
  const char* what;
  std::uint64_t pos, end;
  bool crc_on = false;
  std::uint32_t crc = 0;

  /// n more bytes into p, or io_error "truncated at byte <pos>".
  void read(void* p, std::size_t n) {
    if (end - pos < n) throw_io(what, path, truncated(n), "the file is incomplete; write it again");
    const std::size_t got = std::fread(p, 1, n, f);
    if (got != n) {
      pos += got;
      throw_io(what, path, "read failed at byte " + std::to_string(pos), "the file is incomplete or unreadable");
    }
    if (crc_on) crc = crc32_update(crc, p, n);
    pos += n;
  }
  /// The message of a read of n bytes past the end.
  std::string truncated(std::uint64_t n) const {
    return "truncated at byte " + std::to_string(end) + " (" + std::to_string(n) + " bytes needed from byte " +
           std::to_string(pos) + ")";
  }
  /// io_error "<problem> at byte <at>".
  [[noreturn]] void corrupt(const std::string& problem, std::uint64_t at) const {
    throw_io(what, path, "corrupt: " + problem + " at byte " + std::to_string(at),
             "the file is damaged or not a NumPy file");
  }
};

/// Writes bytes in order to an open file (io_error on a failed write);
/// keeps the count and, when asked, a CRC-32.
struct byte_sink {
  std::FILE* f;
  const std::string& path;
  const char* what;
  std::uint64_t count = 0;
  bool crc_on = false;
  std::uint32_t crc = 0;

  void write(const void* p, std::size_t n) {
    if (n == 0) return;
    if (std::fwrite(p, 1, n, f) != n)
      throw_io(what, path, std::string("write failed: ") + std::strerror(errno), "check the disk's free space");
    if (crc_on) crc = crc32_update(crc, p, n);
    count += n;
  }
};

/// A file written under a temporary name beside `path` and renamed to it by
/// commit(); destroyed uncommitted (an exception), the temporary is removed,
/// so no partial file ever has the target's name.
class atomic_output {
 public:
  atomic_output(const std::string& path, const char* what) : path_(path), what_(what) {
    static std::atomic<unsigned> counter{0};
    for (int attempt = 0; attempt != 64 && !file_.f; ++attempt) {
      // A name no other writer picks: a counter, the clock and an address.
      const auto k = static_cast<unsigned long long>(counter.fetch_add(1) + 1) * 0x9E3779B97F4A7C15ull ^
                     static_cast<unsigned long long>(std::time(nullptr)) ^
                     static_cast<unsigned long long>(reinterpret_cast<std::uintptr_t>(this));
      char suffix[16];
      std::snprintf(suffix, sizeof suffix, "%08llx", (k >> 17) & 0xffffffffull);
      tmp_ = path + ".tmp-" + suffix;
      errno = 0;
      file_.f = std::fopen(tmp_.c_str(), "wbx");
      if (!file_.f && errno != EEXIST) break;
    }
    if (!file_.f)
      throw_io(what, path, "cannot create " + tmp_ + ": " + std::strerror(errno),
               "check that the directory exists and is writable");
  }
  atomic_output(const atomic_output&) = delete;
  atomic_output& operator=(const atomic_output&) = delete;
  ~atomic_output() {
    if (!committed_) {
      if (file_.f) std::fclose(file_.f);
      file_.f = nullptr;
      std::remove(tmp_.c_str());
    }
  }
  /// The open temporary file.
  std::FILE* file() const { return file_.f; }
  /// Flush and close the temporary, then rename it to the target.
  void commit() {
    const bool flushed = std::fflush(file_.f) == 0;
    const bool closed = std::fclose(file_.f) == 0;
    file_.f = nullptr;
    if (!flushed || !closed) throw_io(what_, path_, "write failed on closing", "check the disk's free space");
#ifdef _WIN32
    std::remove(path_.c_str());  // rename does not replace a file there
#endif
    if (std::rename(tmp_.c_str(), path_.c_str()) != 0)
      throw_io(what_, path_, std::string("cannot rename the temporary file: ") + std::strerror(errno),
               "check that the directory is writable");
    committed_ = true;
  }

 private:
  std::string path_, tmp_;
  const char* what_;
  c_file file_;
  bool committed_ = false;
};

}  // namespace sinter::detail
