// A list of flat records held packed in one buffer: each record's fields in its table's order
// (ref/record.hpp), an enumeration or a boolean in one byte, a text as its length and its bytes.
// A contract's provenance (docs/spec.md §2.2) is read into one: a std::vector of the record would
// cost 112 bytes for a 25-byte `{"tag":"note","text":""},` of the document (docs/performance.md,
// "Hostile inputs"). Items are read in order, by value; there is no indexing.
#pragma once

#include "ref/buffer_list.hpp"
#include "ref/record.hpp"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <iterator>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace lo {

namespace packed {

using buffer::getSize;
using buffer::putSize;

template <class T> void put(std::vector<char> &out, const T &v) {
  if constexpr (std::is_enum_v<T>) {
    static_assert(sizeof(T) == 1, "a packed enumeration takes one byte");
    out.push_back(static_cast<char>(v));
  } else if constexpr (std::is_same_v<T, bool>) {
    out.push_back(v ? 1 : 0);
  } else if constexpr (IsOptional<T>::value) {
    out.push_back(v ? 1 : 0);
    if (v)
      put(out, *v);
  } else {
    static_assert(std::is_same_v<T, std::string>, "a packed record's fields are flat");
    putSize(out, v.size());
    out.insert(out.end(), v.begin(), v.end());
  }
}

template <class T> void get(const char *&p, T &v) {
  if constexpr (std::is_enum_v<T>) {
    v = static_cast<T>(static_cast<unsigned char>(*p++));
  } else if constexpr (std::is_same_v<T, bool>) {
    v = *p++ != 0;
  } else if constexpr (IsOptional<T>::value) {
    if (*p++)
      get(p, v.emplace());
    else
      v.reset();
  } else {
    const std::size_t n = getSize(p);
    v.assign(p, n);
    p += n;
  }
}

} // namespace packed

template <class R> class PackedList {
public:
  using value_type = R;

  PackedList() = default;
  PackedList(std::initializer_list<R> items) {
    for (const R &r : items)
      push_back(r);
  }

  std::size_t size() const {
    std::uint32_t n = 0;
    if (!bytes_.empty())
      std::memcpy(&n, bytes_.data(), sizeof n);
    return n;
  }
  bool empty() const { return bytes_.empty(); }
  /// The bytes the items are held in: their count (4 bytes), then each item's fields.
  std::size_t packedBytes() const { return bytes_.size(); }
  void clear() { bytes_.clear(); }

  void push_back(const R &r) {
    const std::size_t n = size();
    if (n == std::numeric_limits<std::uint32_t>::max())
      throw std::length_error("more than 2^32 - 1 items in a list");
    if (bytes_.empty())
      bytes_.resize(sizeof(std::uint32_t));
    forEachField<R>([&](const auto &f, auto) {
      if (!f.has(kFieldAlias))
        packed::put(bytes_, r.*f.member);
    });
    const auto count = static_cast<std::uint32_t>(n + 1);
    std::memcpy(bytes_.data(), &count, sizeof count);
  }

  R front() const { return *begin(); }
  /// Item `i` replaced by `r` (the tests' mutations of a document): by a copy.
  void set(std::size_t i, const R &r) {
    PackedList out;
    std::size_t j = 0;
    for (const R &x : *this)
      out.push_back(j++ == i ? r : x);
    *this = std::move(out);
  }

  class const_iterator : public buffer::ValueIterator<const_iterator, R> {
  public:
    const_iterator() = default;
    explicit const_iterator(const char *p) : p_(p) {}
    R operator*() const {
      const char *p = p_;
      return next(p);
    }
    const_iterator &operator++() {
      next(p_);
      return *this;
    }
    using buffer::ValueIterator<const_iterator, R>::operator++;
    bool operator==(const const_iterator &o) const { return p_ == o.p_; }

  private:
    static R next(const char *&p) {
      R r{};
      forEachField<R>([&](const auto &f, auto) {
        if (!f.has(kFieldAlias))
          packed::get(p, r.*f.member);
      });
      return r;
    }
    const char *p_ = nullptr;
  };
  const_iterator begin() const {
    return const_iterator(bytes_.empty() ? nullptr : bytes_.data() + sizeof(std::uint32_t));
  }
  const_iterator end() const {
    return const_iterator(bytes_.empty() ? nullptr : bytes_.data() + bytes_.size());
  }

  /// Equal item by item (each by its record's `operator==`).
  friend bool operator==(const PackedList &a, const PackedList &b) {
    if (a.size() != b.size())
      return false;
    for (auto i = a.begin(), j = b.begin(); i != a.end(); ++i, ++j)
      if (!(*i == *j))
        return false;
    return true;
  }

private:
  std::vector<char> bytes_; // empty, or the count (4 bytes) and then each item's fields
};

template <class R> struct IsVector<PackedList<R>> : std::true_type {};

} // namespace lo
