#pragma once
/// \file npz.hpp
/// NumPy's .npz archives, uncompressed: `sinter::save_npz(path, {{"a", x},
/// {"b", y}})` writes a ZIP of stored "a.npy", "b.npy" entries as np.savez
/// does; `sinter::npz_file(path).load<T, R>("a")` reads one back (np.savez's
/// archives, ZIP64 records included; np.savez_compressed's deflated entries
/// are refused with value_error). Each entry's CRC-32 is checked on load.
/// sinter writes archives below 4 GiB (no ZIP64): larger is a value_error.
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "array.hpp"
#include "core/error.hpp"
#include "expression.hpp"
#include "io/npy_file.hpp"
#include "io/zip.hpp"
#include "npy.hpp"
#include "transfer.hpp"

namespace sinter {

/// One named array of save_npz, `{"name", x}`: x (an array, view or
/// expression) is referenced, so it must live until save_npz returns.
class npz_entry {
 public:
  /// The entry `name` (stored as "name.npy") holding x's values.
  template <expression X>
  npz_entry(std::string name, const X& x) : name_(std::move(name)), obj_(&x), write_(&write_data<X>) {
    header_ = detail::npy_header_of(x, data_bytes_);
  }
  /// The name given.
  const std::string& name() const { return name_; }

 private:
  template <class X>
  static void write_data(const void* x, detail::byte_sink& out) {
    detail::npy_write_data(out, *static_cast<const X*>(x));
  }
  friend void save_npz(const std::string& path, std::initializer_list<npz_entry> entries);
  std::string name_, header_;
  std::uint64_t data_bytes_ = 0;
  const void* obj_;
  void (*write_)(const void*, detail::byte_sink&);
};

/// Writes the entries to an uncompressed .npz archive, as np.savez does:
/// `sinter::save_npz("run.npz", {{"x", x}, {"loss", loss}});`. Names must be
/// non-empty and distinct (value_error); the file appears complete or not at all.
inline void save_npz(const std::string& path, std::initializer_list<npz_entry> entries) {
  constexpr const char* what = "sinter::save_npz";
  std::uint64_t total = 22;
  for (const npz_entry& e : entries) {
    if (e.name_.empty()) throw value_error("sinter::save_npz: an entry has an empty name; name every array");
    for (const npz_entry& o : entries)
      if (&o != &e && o.name_ == e.name_)
        throw value_error("sinter::save_npz: the name '" + e.name_ + "' is given twice; name each array once");
    total += 2 * (e.name_.size() + 4) + 30 + 46 + e.header_.size() + e.data_bytes_;
  }
  if (total > detail::zip32_max || entries.size() > 0xffff)
    throw value_error("sinter::save_npz: the archive would need ZIP64 (4 GiB or 65,535 entries and more), which "
                      "sinter does not write; save the arrays with save_npy");
  detail::atomic_output file(path, what);
  detail::byte_sink out{file.file(), path, what};
  std::string directory;
  for (const npz_entry& e : entries) {
    const std::string name = e.name_ + ".npy";
    const std::uint64_t size = e.header_.size() + e.data_bytes_;
    const std::uint64_t offset = out.count;
    const std::string local = detail::zip_local_header(name, 0, size);
    out.write(local.data(), local.size());
    detail::byte_sink data{file.file(), path, what, 0, true};
    data.write(e.header_.data(), e.header_.size());
    e.write_(e.obj_, data);
    out.count += data.count;
    std::string crc;
    detail::zip_put(crc, data.crc, 4);
    if (!detail::file_seek(file.file(), offset + 14)) detail::throw_io(what, path, "seek failed", "check the disk");
    out.write(crc.data(), 4);
    out.count -= 4;
    if (!detail::file_seek(file.file(), out.count)) detail::throw_io(what, path, "seek failed", "check the disk");
    directory += detail::zip_central_header(name, data.crc, size, offset);
  }
  const std::uint64_t cd_offset = out.count;
  directory += detail::zip_end_record(entries.size(), directory.size(), cd_offset);
  out.write(directory.data(), directory.size());
  file.commit();
}

/// An .npz archive opened for reading: its directory is read once, each
/// load reads one entry. `sinter::npz_file f("run.npz"); auto x = f.load<float, 2>("x");`
class npz_file {
 public:
  /// Reads the archive's directory (io_error if missing or corrupt).
  explicit npz_file(std::string path) : path_(std::move(path)) {
    detail::c_file file;
    std::uint64_t size = 0;
    open(file, size);
    read_directory(file, size);
  }
  /// The entries' names, as np.load's NpzFile.files (without ".npy").
  const std::vector<std::string>& names() const { return names_; }
  /// Whether an entry has this name.
  bool contains(const std::string& name) const {
    for (const std::string& n : names_)
      if (n == name) return true;
    return false;
  }
  /// The entry `name` as an array of T, rank R, policy P (value_error if
  /// absent, compressed, or of another dtype or rank; io_error if corrupt).
  template <class T, std::size_t R, policy P = host>
  array<T, R, P> load(const std::string& name, P pol = {}) const {
    std::size_t i = 0;
    while (i != names_.size() && names_[i] != name) ++i;
    if (i == names_.size())
      throw value_error("sinter::npz_file::load: " + path_ + " has no entry '" + name + "'; see names()");
    const entry& e = entries_[i];
    if (e.method != 0 || (e.flags & 1u) != 0 || e.csize != e.size)
      throw value_error("sinter::npz_file::load: " + path_ + ": entry '" + name +
                        "' is compressed or encrypted; sinter reads np.savez's archives, not np.savez_compressed's");
    detail::c_file file;
    std::uint64_t size = 0;
    open(file, size);
    const std::string where = path_ + " (entry '" + name + "')";
    detail::byte_source in{file.f, where, what, e.offset, size};
    if (!detail::file_seek(file.f, e.offset)) in.corrupt("entry offset beyond the file", e.offset);
    unsigned char local[30];
    in.read(local, 30);
    if (detail::zip_get(local, 4) != detail::zip_local_sig) in.corrupt("no local header", e.offset);
    const std::uint64_t start = e.offset + 30 + detail::zip_get(local + 26, 2) + detail::zip_get(local + 28, 2);
    if (start > size || size - start < e.size || !detail::file_seek(file.f, start))
      in.corrupt("entry data beyond the file", start);
    detail::byte_source data{file.f, where, what, start, start + e.size, true};
    auto a = detail::npy_read<T, R>(data, pol);
    if (data.crc != e.crc) in.corrupt("CRC-32 mismatch of the entry", start);
    return a;
  }

 private:
  static constexpr const char* what = "sinter::npz_file";
  struct entry {
    std::uint64_t offset = 0, size = 0, csize = 0;
    std::uint32_t crc = 0;
    unsigned method = 0, flags = 0;
  };
  void open(detail::c_file& file, std::uint64_t& size) const {
    detail::open_for_reading(file, path_, what);
    if (!detail::file_size(file.f, size)) detail::throw_io(what, path_, "cannot find its size", "check the path");
  }
  void read_directory(detail::c_file& file, std::uint64_t size) {
    detail::byte_source in{file.f, path_, what, 0, size};
    const std::uint64_t tail = std::min<std::uint64_t>(size, 22 + 65535);
    std::vector<unsigned char> t(static_cast<std::size_t>(tail));
    in.pos = size - tail;
    if (!detail::file_seek(file.f, in.pos)) in.corrupt("seek failed", in.pos);
    in.read(t.data(), t.size());
    std::size_t at = t.size() < 22 ? 0 : t.size() - 22 + 1;
    while (at-- > 0 && detail::zip_get(&t[at], 4) != detail::zip_end_sig) {}
    if (at == static_cast<std::size_t>(-1)) in.corrupt("no end of central directory record", size);
    const std::uint64_t eocd = size - tail + at;
    std::uint64_t count = detail::zip_get(&t[at + 10], 2), cd_size = detail::zip_get(&t[at + 12], 4),
                  cd_off = detail::zip_get(&t[at + 16], 4);
    if ((count == 0xffff || cd_size == detail::zip32_max || cd_off == detail::zip32_max) && at >= 20 &&
        detail::zip_get(&t[at - 20], 4) == detail::zip64_locator_sig) {  // ZIP64 end record
      unsigned char z[56];
      in.pos = detail::zip_get(&t[at - 12], 8);
      if (in.pos > size || !detail::file_seek(file.f, in.pos)) in.corrupt("bad ZIP64 locator", eocd - 20);
      in.end = size;
      in.read(z, 56);
      if (detail::zip_get(z, 4) != detail::zip64_end_sig) in.corrupt("bad ZIP64 end record", in.pos - 56);
      count = detail::zip_get(z + 32, 8), cd_size = detail::zip_get(z + 40, 8), cd_off = detail::zip_get(z + 48, 8);
    }
    if (cd_off > eocd || cd_size > eocd - cd_off || cd_size > (std::uint64_t{1} << 28))
      in.corrupt("central directory outside the file", eocd);
    std::vector<unsigned char> cd(static_cast<std::size_t>(cd_size));
    in.pos = cd_off;
    in.end = cd_off + cd_size;
    if (!detail::file_seek(file.f, cd_off)) in.corrupt("seek failed", cd_off);
    in.read(cd.data(), cd.size());
    std::size_t p = 0;
    for (std::uint64_t k = 0; k != count; ++k) {
      if (cd.size() - p < 46 || detail::zip_get(&cd[p], 4) != detail::zip_central_sig)
        in.corrupt("bad central directory record", cd_off + p);
      entry e;
      e.flags = static_cast<unsigned>(detail::zip_get(&cd[p + 8], 2));
      e.method = static_cast<unsigned>(detail::zip_get(&cd[p + 10], 2));
      e.crc = static_cast<std::uint32_t>(detail::zip_get(&cd[p + 16], 4));
      e.csize = detail::zip_get(&cd[p + 20], 4), e.size = detail::zip_get(&cd[p + 24], 4);
      e.offset = detail::zip_get(&cd[p + 42], 4);
      const std::size_t n = detail::zip_get(&cd[p + 28], 2), x = detail::zip_get(&cd[p + 30], 2),
                        c = detail::zip_get(&cd[p + 32], 2);
      if (cd.size() - p - 46 < n + x + c) in.corrupt("central directory record overruns", cd_off + p);
      std::string name(reinterpret_cast<const char*>(&cd[p + 46]), n);
      for (std::size_t q = p + 46 + n; q + 4 <= p + 46 + n + x;) {  // the ZIP64 extra field
        const std::size_t id = detail::zip_get(&cd[q], 2), len = detail::zip_get(&cd[q + 2], 2);
        if (q + 4 + len > p + 46 + n + x) in.corrupt("extra field overruns", cd_off + q);
        std::size_t f = q + 4;
        for (std::uint64_t* v : {&e.size, &e.csize, &e.offset})
          if (id == 1 && *v == detail::zip32_max && f + 8 <= q + 4 + len) *v = detail::zip_get(&cd[f], 8), f += 8;
        q += 4 + len;
      }
      if (name.size() > 4 && name.compare(name.size() - 4, 4, ".npy") == 0) name.resize(name.size() - 4);
      names_.push_back(std::move(name));
      entries_.push_back(e);
      p += 46 + n + x + c;
    }
  }
  std::string path_;
  std::vector<std::string> names_;
  std::vector<entry> entries_;
};

/// One entry of an .npz archive: `auto x = sinter::load_npz<float, 2>("run.npz", "x");`
template <class T, std::size_t R, policy P = host>
array<T, R, P> load_npz(const std::string& path, const std::string& name, P pol = {}) {
  return npz_file(path).load<T, R, P>(name, pol);
}

}  // namespace sinter
