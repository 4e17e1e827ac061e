// .npy and .npz files (npy.hpp, npz.hpp): round trips of every element type
// and rank 0-3, views, expressions streamed in blocks, files written by NumPy
// 2.4 (their bytes below, with the NumPy code that wrote each), every
// truncation and a few hundred bit flips of a header, and failed writes.
#include <doctest/doctest.h>

#include <chrono>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <sinter/npy.hpp>
#include <sinter/npz.hpp>
#include <sinter/sinter.hpp>

#include "support/scale.hpp"

namespace test_npy {

namespace st = sinter;
namespace fs = std::filesystem;

// A fresh directory under the system's temporary one, removed with its files.
struct temp_dir {
  fs::path dir;
  temp_dir() {
    dir = fs::temp_directory_path() /
          ("sinter_test_npy_" + std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()));
    fs::create_directories(dir);
  }
  ~temp_dir() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
  std::string operator/(const std::string& name) const { return (dir / name).string(); }
  // A new file name per call: rewriting one file makes ext4 flush it to disk
  // on close (auto_da_alloc), milliseconds each.
  std::string fresh(const char* ext) {
    fs::remove(last);
    last = (dir / ("f" + std::to_string(++n) + ext)).string();
    return last;
  }
  std::string last;
  int n = 0;
  std::size_t count() const { return static_cast<std::size_t>(std::distance(fs::directory_iterator(dir), {})); }
};

std::vector<unsigned char> read_bytes(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(f), {}};
}
template <std::size_t N>
void write_bytes(const std::string& path, const unsigned char (&b)[N], std::size_t n = N) {
  std::ofstream f(path, std::ios::binary);
  f.write(reinterpret_cast<const char*>(b), static_cast<std::streamsize>(n));
}
void write_bytes(const std::string& path, const std::vector<unsigned char>& b) {
  std::ofstream f(path, std::ios::binary);
  f.write(reinterpret_cast<const char*>(b.data()), static_cast<std::streamsize>(b.size()));
}

// A deterministic pseudo-random 64-bit sequence (splitmix64).
struct bits64 {
  std::uint64_t s;
  std::uint64_t operator()() {
    std::uint64_t z = (s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
};

// Element i's test value: random bits for integers and 16-bit floats, a
// random finite value for float and double, random truth for bool.
template <class T>
T value(bits64& g) {
  const std::uint64_t r = g();
  if constexpr (std::is_same_v<T, bool>) return (r & 1) != 0;
  else if constexpr (std::is_same_v<T, st::half>) return st::half::from_bits(static_cast<std::uint16_t>(r));
  else if constexpr (std::is_same_v<T, st::bfloat16>) return st::bfloat16::from_bits(static_cast<std::uint16_t>(r));
  else if constexpr (std::is_floating_point_v<T>) return static_cast<T>(static_cast<double>(static_cast<std::int64_t>(r)) * 0x1p-40);
  else return static_cast<T>(r);
}

template <class T, std::size_t R>
st::array<T, R> random_array(const st::extents<R>& shape, std::uint64_t seed) {
  st::array<T, R> a(shape);
  bits64 g{seed};
  for (T& x : a) x = value<T>(g);
  return a;
}

// Element-wise equality of the bytes (NaN payloads included), row-major.
template <class A, class B>
bool same_bits(const A& a, const B& b) {
  if (a.shape() != b.shape()) return false;
  auto i = b.begin();
  for (const auto& x : a) {
    const auto y = *i++;
    if (std::memcmp(&x, &y, sizeof x) != 0) return false;
  }
  return true;
}

// np.save(f, np.arange(6.).reshape(2, 3) / 4 - 0.5)
constexpr unsigned char np_f8_2x3[] = {
    147,78,85,77,80,89,1,0,118,0,123,39,100,101,115,99,114,39,58,32,
    39,60,102,56,39,44,32,39,102,111,114,116,114,97,110,95,111,114,100,101,
    114,39,58,32,70,97,108,115,101,44,32,39,115,104,97,112,101,39,58,32,
    40,50,44,32,51,41,44,32,125,32,32,32,32,32,32,32,32,32,32,32,
    32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,
    32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,
    32,32,32,32,32,32,32,10,0,0,0,0,0,0,224,191,0,0,0,0,
    0,0,208,191,0,0,0,0,0,0,0,0,0,0,0,0,0,0,208,63,
    0,0,0,0,0,0,224,63,0,0,0,0,0,0,232,63,};

// np.save(f, np.array([1, -2, 300000, -2**31, 2**31 - 1], dtype='>i4'))
constexpr unsigned char np_be_i4[] = {
    147,78,85,77,80,89,1,0,118,0,123,39,100,101,115,99,114,39,58,32,
    39,62,105,52,39,44,32,39,102,111,114,116,114,97,110,95,111,114,100,101,
    114,39,58,32,70,97,108,115,101,44,32,39,115,104,97,112,101,39,58,32,
    40,53,44,41,44,32,125,32,32,32,32,32,32,32,32,32,32,32,32,32,
    32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,
    32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,
    32,32,32,32,32,32,32,10,0,0,0,1,255,255,255,254,0,4,147,224,
    128,0,0,0,127,255,255,255,};

// np.save(f, np.asfortranarray(np.arange(12, dtype=np.float32).reshape(2, 3, 2) * 1.5))
constexpr unsigned char np_fortran_f4[] = {
    147,78,85,77,80,89,1,0,118,0,123,39,100,101,115,99,114,39,58,32,
    39,60,102,52,39,44,32,39,102,111,114,116,114,97,110,95,111,114,100,101,
    114,39,58,32,84,114,117,101,44,32,39,115,104,97,112,101,39,58,32,40,
    50,44,32,51,44,32,50,41,44,32,125,32,32,32,32,32,32,32,32,32,
    32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,
    32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,
    32,32,32,32,32,32,32,10,0,0,0,0,0,0,16,65,0,0,64,64,
    0,0,64,65,0,0,192,64,0,0,112,65,0,0,192,63,0,0,40,65,
    0,0,144,64,0,0,88,65,0,0,240,64,0,0,132,65,};

// np.lib.format.write_array(f, np.array([[1, 2**40], [-7, 5]], dtype='<i8'), version=(2, 0))
constexpr unsigned char np_v2_i8[] = {
    147,78,85,77,80,89,2,0,116,0,0,0,123,39,100,101,115,99,114,39,
    58,32,39,60,105,56,39,44,32,39,102,111,114,116,114,97,110,95,111,114,
    100,101,114,39,58,32,70,97,108,115,101,44,32,39,115,104,97,112,101,39,
    58,32,40,50,44,32,50,41,44,32,125,32,32,32,32,32,32,32,32,32,
    32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,
    32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,
    32,32,32,32,32,32,32,10,1,0,0,0,0,0,0,0,0,0,0,0,
    0,1,0,0,249,255,255,255,255,255,255,255,5,0,0,0,0,0,0,0,};

// np.lib.format.write_array(f, np.array([0.5, -1.25, 3.0], dtype='>f8'), version=(3, 0))
constexpr unsigned char np_v3_be_f8[] = {
    147,78,85,77,80,89,3,0,116,0,0,0,123,39,100,101,115,99,114,39,
    58,32,39,62,102,56,39,44,32,39,102,111,114,116,114,97,110,95,111,114,
    100,101,114,39,58,32,70,97,108,115,101,44,32,39,115,104,97,112,101,39,
    58,32,40,51,44,41,44,32,125,32,32,32,32,32,32,32,32,32,32,32,
    32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,
    32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,
    32,32,32,32,32,32,32,10,63,224,0,0,0,0,0,0,191,244,0,0,
    0,0,0,0,64,8,0,0,0,0,0,0,};

// np.save(f, np.array([1.0, -0.5, 65504, 6e-8, np.inf], dtype='<f2'))
constexpr unsigned char np_f2[] = {
    147,78,85,77,80,89,1,0,118,0,123,39,100,101,115,99,114,39,58,32,
    39,60,102,50,39,44,32,39,102,111,114,116,114,97,110,95,111,114,100,101,
    114,39,58,32,70,97,108,115,101,44,32,39,115,104,97,112,101,39,58,32,
    40,53,44,41,44,32,125,32,32,32,32,32,32,32,32,32,32,32,32,32,
    32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,
    32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,
    32,32,32,32,32,32,32,10,0,60,0,184,255,123,1,0,0,124,};

// np.save(f, np.array([True, False, True, True]))
constexpr unsigned char np_b1[] = {
    147,78,85,77,80,89,1,0,118,0,123,39,100,101,115,99,114,39,58,32,
    39,124,98,49,39,44,32,39,102,111,114,116,114,97,110,95,111,114,100,101,
    114,39,58,32,70,97,108,115,101,44,32,39,115,104,97,112,101,39,58,32,
    40,52,44,41,44,32,125,32,32,32,32,32,32,32,32,32,32,32,32,32,
    32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,
    32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,
    32,32,32,32,32,32,32,10,1,0,1,1,};

// np.save(f, np.array(40000, dtype=np.uint16))
constexpr unsigned char np_u2_scalar[] = {
    147,78,85,77,80,89,1,0,118,0,123,39,100,101,115,99,114,39,58,32,
    39,60,117,50,39,44,32,39,102,111,114,116,114,97,110,95,111,114,100,101,
    114,39,58,32,70,97,108,115,101,44,32,39,115,104,97,112,101,39,58,32,
    40,41,44,32,125,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,
    32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,
    32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,
    32,32,32,32,32,32,32,10,64,156,};

// np.save(f, np.asfortranarray(np.array([[1, 2, 3], [2**63, 5, 6]], dtype='>u8')))
constexpr unsigned char np_be_u8_fortran[] = {
    147,78,85,77,80,89,1,0,118,0,123,39,100,101,115,99,114,39,58,32,
    39,62,117,56,39,44,32,39,102,111,114,116,114,97,110,95,111,114,100,101,
    114,39,58,32,84,114,117,101,44,32,39,115,104,97,112,101,39,58,32,40,
    50,44,32,51,41,44,32,125,32,32,32,32,32,32,32,32,32,32,32,32,
    32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,
    32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,
    32,32,32,32,32,32,32,10,0,0,0,0,0,0,0,1,128,0,0,0,
    0,0,0,0,0,0,0,0,0,0,0,2,0,0,0,0,0,0,0,5,
    0,0,0,0,0,0,0,3,0,0,0,0,0,0,0,6,};

// np.savez(f, x=np.array([1.5, 2.5], dtype=np.float32), n=np.arange(4, dtype=np.int8).reshape(2, 2))
constexpr unsigned char np_npz[] = {
    80,75,3,4,45,0,0,0,0,0,0,0,33,0,84,228,119,125,255,255,
    255,255,255,255,255,255,5,0,20,0,120,46,110,112,121,1,0,16,0,136,
    0,0,0,0,0,0,0,136,0,0,0,0,0,0,0,147,78,85,77,80,
    89,1,0,118,0,123,39,100,101,115,99,114,39,58,32,39,60,102,52,39,
    44,32,39,102,111,114,116,114,97,110,95,111,114,100,101,114,39,58,32,70,
    97,108,115,101,44,32,39,115,104,97,112,101,39,58,32,40,50,44,41,44,
    32,125,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,
    32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,
    32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,
    32,32,10,0,0,192,63,0,0,32,64,80,75,3,4,45,0,0,0,0,
    0,0,0,33,0,79,157,101,113,255,255,255,255,255,255,255,255,5,0,20,
    0,110,46,110,112,121,1,0,16,0,132,0,0,0,0,0,0,0,132,0,
    0,0,0,0,0,0,147,78,85,77,80,89,1,0,118,0,123,39,100,101,
    115,99,114,39,58,32,39,124,105,49,39,44,32,39,102,111,114,116,114,97,
    110,95,111,114,100,101,114,39,58,32,70,97,108,115,101,44,32,39,115,104,
    97,112,101,39,58,32,40,50,44,32,50,41,44,32,125,32,32,32,32,32,
    32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,
    32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,32,
    32,32,32,32,32,32,32,32,32,32,32,32,32,10,0,1,2,3,80,75,
    1,2,45,3,45,0,0,0,0,0,0,0,33,0,84,228,119,125,136,0,
    0,0,136,0,0,0,5,0,0,0,0,0,0,0,0,0,0,0,128,1,
    0,0,0,0,120,46,110,112,121,80,75,1,2,45,3,45,0,0,0,0,
    0,0,0,33,0,79,157,101,113,132,0,0,0,132,0,0,0,5,0,0,
    0,0,0,0,0,0,0,0,0,128,1,191,0,0,0,110,46,110,112,121,
    80,75,5,6,0,0,0,0,2,0,2,0,102,0,0,0,122,1,0,0,
    0,0,};

// np.savez_compressed(f, x=np.zeros(3))
constexpr unsigned char np_npz_deflated[] = {
    80,75,3,4,45,0,0,0,8,0,0,0,33,0,46,227,249,188,255,255,
    255,255,255,255,255,255,5,0,20,0,120,46,110,112,121,1,0,16,0,152,
    0,0,0,0,0,0,0,71,0,0,0,0,0,0,0,155,236,23,234,27,
    16,201,200,80,198,80,173,158,146,90,156,92,164,110,165,160,110,147,102,161,
    174,163,160,158,150,95,84,82,148,152,23,159,95,148,146,10,18,119,75,204,
    41,78,5,138,23,103,36,22,164,2,249,26,198,58,154,58,10,181,10,20,
    0,46,6,28,0,0,80,75,1,2,45,3,45,0,0,0,8,0,0,0,
    33,0,46,227,249,188,71,0,0,0,152,0,0,0,5,0,0,0,0,0,
    0,0,0,0,0,0,128,1,0,0,0,0,120,46,110,112,121,80,75,5,
    6,0,0,0,0,1,0,1,0,51,0,0,0,126,0,0,0,0,0,};

// The descr sinter writes for each type (a little-endian host).
template <class T>
const char* descr_of() {
  if constexpr (std::is_same_v<T, bool>) return "'|b1'";
  else if constexpr (std::is_same_v<T, std::int8_t>) return "'|i1'";
  else if constexpr (std::is_same_v<T, std::uint8_t>) return "'|u1'";
  else if constexpr (std::is_same_v<T, std::int16_t>) return "'<i2'";
  else if constexpr (std::is_same_v<T, std::uint16_t>) return "'<u2'";
  else if constexpr (std::is_same_v<T, std::int32_t>) return "'<i4'";
  else if constexpr (std::is_same_v<T, std::uint32_t>) return "'<u4'";
  else if constexpr (std::is_same_v<T, std::int64_t>) return "'<i8'";
  else if constexpr (std::is_same_v<T, std::uint64_t>) return "'<u8'";
  else if constexpr (std::is_same_v<T, st::half>) return "'<f2'";
  else if constexpr (std::is_same_v<T, st::bfloat16>) return "'<V2'";
  else if constexpr (std::is_same_v<T, float>) return "'<f4'";
  else return "'<f8'";
}

// Saves a random array, loads it back: the same bits, and the file holds
// the descr and a 64-byte header block. One result, one CHECK per type.
template <class T, std::size_t R>
bool round_trip(temp_dir& tmp, const st::extents<R>& shape, std::uint64_t seed) {
  const auto a = random_array<T, R>(shape, seed);
  const std::string p = tmp.fresh(".npy");
  st::save_npy(p, a);
  const auto bytes = read_bytes(p);
  const std::string text(bytes.begin(), bytes.end());
  return same_bits(a, st::load_npy<T, R>(p)) &&
         bytes.size() % 64 == (static_cast<std::size_t>(a.size()) * sizeof(T)) % 64 &&
         text.find(std::string("'descr': ") + descr_of<T>()) != std::string::npos;
}

TEST_CASE_TEMPLATE("npy: round trips of every element type, ranks 0 to 3", T, bool, std::int8_t, std::uint8_t,
                   std::int16_t, std::uint16_t, std::int32_t, std::uint32_t, std::int64_t, std::uint64_t,
                   st::half, st::bfloat16, float, double) {
  temp_dir tmp;
  bool ok = round_trip<T, 0>(tmp, {}, 1);
  for (st::index_t n : {0, 1, 7, 61}) ok = round_trip<T, 1>(tmp, {n}, 2 + static_cast<std::uint64_t>(n)) && ok;
  ok = round_trip<T, 2>(tmp, {3, 5}, 3) && round_trip<T, 2>(tmp, {0, 4}, 4) && round_trip<T, 3>(tmp, {2, 3, 4}, 5) && ok;
  CHECK(ok);
}

TEST_CASE("npy: sinter writes NumPy's bytes") {
  const temp_dir tmp;
  st::array<double, 2> a({2, 3});
  for (int i = 0; i != 6; ++i) a(i / 3, i % 3) = i / 4.0 - 0.5;
  st::save_npy(tmp / "a.npy", a);
  CHECK(read_bytes(tmp / "a.npy") == std::vector<unsigned char>(std::begin(np_f8_2x3), std::end(np_f8_2x3)));
  const bool flags[] = {true, false, true, true};
  st::save_npy(tmp / "b.npy", st::as_view(flags, {4}));
  CHECK(read_bytes(tmp / "b.npy") == std::vector<unsigned char>(std::begin(np_b1), std::end(np_b1)));
  st::array<std::uint16_t, 0> s;
  s() = 40000;
  st::save_npy(tmp / "s.npy", s);
  CHECK(read_bytes(tmp / "s.npy") == std::vector<unsigned char>(std::begin(np_u2_scalar), std::end(np_u2_scalar)));
  const std::uint16_t hb[] = {15360, 47104, 31743, 1, 31744};  // np_f2's values as bits
  st::array<st::half, 1> h({5});
  for (int i = 0; i != 5; ++i) h(i) = st::half::from_bits(hb[i]);
  st::save_npy(tmp / "h.npy", h);
  CHECK(read_bytes(tmp / "h.npy") == std::vector<unsigned char>(std::begin(np_f2), std::end(np_f2)));
}

TEST_CASE("npy: NumPy's files: big-endian, Fortran order, versions 2.0 and 3.0") {
  const temp_dir tmp;
  write_bytes(tmp / "f8.npy", np_f8_2x3);
  const auto a = st::load_npy<double, 2>(tmp / "f8.npy");
  for (int i = 0; i != 6; ++i) CHECK(a(i / 3, i % 3) == i / 4.0 - 0.5);
  write_bytes(tmp / "be.npy", np_be_i4);
  const auto b = st::load_npy<std::int32_t, 1, st::par>(tmp / "be.npy");
  const std::int32_t bv[] = {1, -2, 300000, INT32_MIN, INT32_MAX};
  for (int i = 0; i != 5; ++i) CHECK(b(i) == bv[i]);
  write_bytes(tmp / "fo.npy", np_fortran_f4);  // shape (2, 3, 2), value 1.5 * its C-order index
  const auto c = st::load_npy<float, 3>(tmp / "fo.npy");
  for (int i = 0; i != 12; ++i) CHECK(c(i / 6, i / 2 % 3, i % 2) == 1.5f * static_cast<float>(i));
  write_bytes(tmp / "v2.npy", np_v2_i8);
  const auto d = st::load_npy<std::int64_t, 2>(tmp / "v2.npy");
  CHECK((d(0, 0) == 1 && d(0, 1) == (std::int64_t{1} << 40) && d(1, 0) == -7 && d(1, 1) == 5));
  write_bytes(tmp / "v3.npy", np_v3_be_f8);
  const auto e = st::load_npy<double, 1>(tmp / "v3.npy");
  CHECK((e.size() == 3 && e(0) == 0.5 && e(1) == -1.25 && e(2) == 3.0));
  write_bytes(tmp / "h.npy", np_f2);
  const auto h = st::load_npy<st::half, 1>(tmp / "h.npy");
  const std::uint16_t hb[] = {15360, 47104, 31743, 1, 31744};
  for (int i = 0; i != 5; ++i) CHECK(h(i).bits == hb[i]);
  write_bytes(tmp / "u8.npy", np_be_u8_fortran);
  const auto u = st::load_npy<std::uint64_t, 2>(tmp / "u8.npy");
  const std::uint64_t uv[] = {1, 2, 3, std::uint64_t{1} << 63, 5, 6};
  for (int i = 0; i != 6; ++i) CHECK(u(i / 3, i % 3) == uv[i]);
  write_bytes(tmp / "s.npy", np_u2_scalar);
  const auto s = st::load_npy<std::uint16_t, 0>(tmp / "s.npy");
  CHECK(s() == 40000);
  std::vector<unsigned char> flags(std::begin(np_b1), std::end(np_b1));
  flags[128 + 2] = 7;  // a bool byte NumPy would not write: loaded as true
  write_bytes(tmp / "b.npy", flags);
  const auto f = st::load_npy<bool, 1>(tmp / "b.npy");
  CHECK((f(0) && !f(1) && f(2) && f(3)));
}

TEST_CASE("npy: views and expressions are written in C order, in blocks") {
  const temp_dir tmp;
  const auto a = random_array<float, 3>({5, 6, 7}, 11);
  const auto check = [&](const auto& x, auto ref) {  // ref(i, j, k): the element, by plain indexing
    st::save_npy(tmp / "x.npy", x);
    const auto b = st::load_npy<float, 3>(tmp / "x.npy");
    bool ok = b.shape() == x.shape();
    for (st::index_t i = 0; ok && i != b.shape(0); ++i)
      for (st::index_t j = 0; j != b.shape(1); ++j)
        for (st::index_t k = 0; k != b.shape(2); ++k) ok = ok && b(i, j, k) == ref(i, j, k);
    CHECK(ok);
  };
  check(a(st::slice(st::none, st::none, -1), st::slice(1, 6, 2), st::all),
        [&](st::index_t i, st::index_t j, st::index_t k) { return a(4 - i, 1 + 2 * j, k); });
  check(st::transpose(a), [&](st::index_t i, st::index_t j, st::index_t k) { return a(k, j, i); });
  check(a * 2.f + 1.f, [&](st::index_t i, st::index_t j, st::index_t k) { return a(i, j, k) * 2.f + 1.f; });
  // Rows longer than the 1 MiB buffer: blocks along the last axis; and many rows per block.
  for (const st::extents<2> s : {st::extents<2>{2, 300001}, st::extents<2>{700, 1001}}) {
    const auto e = st::reshape(st::arange<float>(s[0] * s[1]), s) * 2.f - 3.f;
    st::save_npy(tmp / "big.npy", e);
    const auto b = st::load_npy<float, 2>(tmp / "big.npy");
    bool ok = b.shape() == s;
    float i = 0;
    for (float v : b) ok = ok && v == i++ * 2.f - 3.f;
    CHECK(ok);
  }
  st::array<double, 0> z;
  z() = 10.0;
  st::save_npy(tmp / "z.npy", z + 1.0);
  const auto z1 = st::load_npy<double, 0>(tmp / "z.npy");
  CHECK(z1() == 11.0);
}

TEST_CASE("npy: another dtype or rank is a value_error naming both") {
  const temp_dir tmp;
  write_bytes(tmp / "f8.npy", np_f8_2x3);
  std::string msg;
  try {
    (void)st::load_npy<float, 2>(tmp / "f8.npy");
  } catch (const st::value_error& e) {
    msg = e.what();
  }
  CHECK(msg.find("float64 ('<f8') of shape (2, 3)") != std::string::npos);
  CHECK(msg.find("not float32 of rank 2") != std::string::npos);
  CHECK_THROWS_AS(((void)st::load_npy<double, 1>(tmp / "f8.npy")), st::value_error);
  CHECK_THROWS_AS(((void)st::load_npy<std::int64_t, 2>(tmp / "f8.npy")), st::value_error);
  write_bytes(tmp / "h.npy", np_f2);
  CHECK_THROWS_AS(((void)st::load_npy<st::bfloat16, 1>(tmp / "h.npy")), st::value_error);
  CHECK_THROWS_AS(((void)st::load_npy<float, 1>(tmp / "missing.npy")), st::io_error);
}

// Loading must throw one of sinter's errors or succeed; anything else fails.
template <class T, std::size_t R>
int load_outcome(const std::string& p) {
  try {
    (void)st::load_npy<T, R>(p);
    return 0;
  } catch (const st::io_error&) {
    return 1;
  } catch (const st::value_error&) {
    return 2;
  }
}

TEST_CASE("npy: every truncation and header bit flips give io_error or value_error") {
  const temp_dir tmp;
  const std::string p = tmp / "t.npy";
  temp_dir fuzz;
  for (std::size_t n = 0; n != sizeof np_fortran_f4; ++n) {
    const std::string q = fuzz.fresh(".npy");
    write_bytes(q, np_fortran_f4, n);
    CHECK(load_outcome<float, 3>(q) == 1);
  }
  std::vector<unsigned char> longer(std::begin(np_v2_i8), std::end(np_v2_i8));
  longer.push_back(0);
  write_bytes(p, longer);
  CHECK(load_outcome<std::int64_t, 2>(p) == 1);
  int outcomes[3] = {0, 0, 0};
  bits64 g{99};
  for (int t = 0; t != 400; ++t) {
    std::vector<unsigned char> b(std::begin(np_f8_2x3), std::end(np_f8_2x3));
    const std::uint64_t r = g();
    b[r % 128] ^= static_cast<unsigned char>(1u << (r >> 32) % 8);
    if (t % 4 == 3) b[(r >> 40) % 128] ^= static_cast<unsigned char>(1u << (r >> 20) % 8);  // two flips
    const std::string q = fuzz.fresh(".npy");
    write_bytes(q, b);
    ++outcomes[load_outcome<double, 2>(q)];
  }
  CHECK(outcomes[1] > 100);  // most flips break the header
  CHECK(outcomes[2] > 0);    // some change the dtype
  MESSAGE("bit flips: loaded " << outcomes[0] << ", io_error " << outcomes[1] << ", value_error " << outcomes[2]);
}

TEST_CASE("npy: a failed write leaves no file under the target's name") {
  const temp_dir tmp;
  const st::array<float, 1> a = st::arange<float>(100000);
  CHECK_THROWS_AS(st::save_npy(tmp / "no/such/dir/x.npy", a), st::io_error);
  CHECK(!fs::exists(tmp / "no"));
  const std::string p = tmp / "keep.npy";
  st::save_npy(p, a(st::slice(0, 10)));
  const auto before = read_bytes(p);
  int calls = 0;
  int* c = &calls;
  const auto failing = st::map([c](float x) { return ++*c > 50000 ? throw std::runtime_error("boom") : x; }, a);
  CHECK_THROWS_AS(st::save_npy(p, failing), std::runtime_error);
  CHECK(read_bytes(p) == before);
  CHECK_THROWS_AS((st::save_npz(tmp / "k.npz", {{"a", a}, {"f", failing}})), std::runtime_error);
  CHECK(tmp.count() == 1);  // keep.npy alone: no temporary left
}

TEST_CASE("npz: round trips, NumPy's archives, and damaged ones") {
  const temp_dir tmp;
  const auto a = random_array<double, 2>({4, 5}, 21);
  const auto h = random_array<st::half, 1>({9}, 22);
  st::save_npz(tmp / "r.npz", {{"a", a}, {"t", st::transpose(a)}, {"h", h}, {"e", a(1, st::all) * 2.0}});
  st::npz_file f(tmp / "r.npz");
  CHECK(f.names() == std::vector<std::string>{"a", "t", "h", "e"});
  CHECK(same_bits(f.load<double, 2>("a"), a));
  const auto t = f.load<double, 2>("t");
  CHECK((t.shape() == st::extents<2>{5, 4} && t(3, 1) == a(1, 3)));
  CHECK(same_bits(st::load_npz<st::half, 1>(tmp / "r.npz", "h"), h));
  const auto e = f.load<double, 1, st::par>("e");
  CHECK(e(4) == a(1, 4) * 2.0);
  CHECK_THROWS_AS(((void)f.load<double, 2>("nope")), st::value_error);
  CHECK_THROWS_AS(((void)f.load<float, 2>("a")), st::value_error);
  CHECK_THROWS_AS((st::save_npz(tmp / "d.npz", {{"a", a}, {"a", h}})), st::value_error);

  write_bytes(tmp / "n.npz", np_npz);  // np.savez's ZIP64 local headers
  st::npz_file n(tmp / "n.npz");
  CHECK(n.names() == std::vector<std::string>{"x", "n"});
  const auto x = n.load<float, 1>("x");
  CHECK((x(0) == 1.5f && x(1) == 2.5f));
  const auto m = n.load<std::int8_t, 2>("n");
  CHECK((m(0, 0) == 0 && m(0, 1) == 1 && m(1, 0) == 2 && m(1, 1) == 3));
  write_bytes(tmp / "z.npz", np_npz_deflated);
  CHECK_THROWS_AS(((void)st::load_npz<double, 1>(tmp / "z.npz", "x")), st::value_error);

  temp_dir fuzz;
  for (std::size_t k = 0; k < sizeof np_npz; k += 1 + (SINTER_TEST_SCALE > 1)) {
    const std::string p = fuzz.fresh(".npz");
    write_bytes(p, np_npz, k);
    try {
      st::npz_file c(p);
      (void)c.load<float, 1>("x");
      (void)c.load<std::int8_t, 2>("n");
      FAIL("a truncated archive loaded, length " << k);
    } catch (const st::io_error&) {
    } catch (const st::value_error&) {  // the cut directory lost an entry
    }
  }
  bits64 g{7};
  for (int i = 0; i != 300; ++i) {
    std::vector<unsigned char> b(std::begin(np_npz), std::end(np_npz));
    const std::uint64_t r = g();
    b[r % b.size()] ^= static_cast<unsigned char>(1u << (r >> 32) % 8);
    const std::string p = fuzz.fresh(".npz");
    write_bytes(p, b);
    try {
      st::npz_file c(p);
      for (const std::string& name : c.names()) {
        if (name == "x") (void)c.load<float, 1>(name);
        if (name == "n") (void)c.load<std::int8_t, 2>(name);
      }
    } catch (const st::io_error&) {
    } catch (const st::value_error&) {
    }
  }
}

}  // namespace test_npy
