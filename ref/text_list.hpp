// A list of texts held in one buffer, each its length (LEB128, ref/buffer_list.hpp) and its bytes,
// with the place of every 64th text beside them: the capsule names an audit document lists
// (docs/spec.md §2.6) as a reader keeps them. A std::string a name would cost 32 bytes for a
// 6-byte `"abc",` of the document, and a 4-byte end a name 7 bytes (docs/performance.md, "Hostile
// inputs"); here it costs 4. Iteration reads each text once; `list[i]` reads at most 63 others.
#pragma once

#include "ref/buffer_list.hpp"

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <limits>
#include <ostream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace lo {

class TextList {
public:
  TextList() = default;
  explicit TextList(const std::vector<std::string> &texts) {
    for (const auto &t : texts)
      push_back(t);
  }
  TextList(std::initializer_list<std::string_view> texts) {
    for (std::string_view t : texts)
      push_back(t);
  }

  std::size_t size() const { return count_; }
  bool empty() const { return count_ == 0; }
  std::string_view operator[](std::size_t i) const {
    std::size_t at = marks_[i / kMarkEvery];
    for (std::size_t k = i % kMarkEvery; k > 0; --k)
      at = after(at);
    return textAt(at);
  }
  std::string_view back() const { return (*this)[count_ - 1]; }

  /// Room for `count` texts of `bytes` bytes in all, their lengths included (pages never written
  /// are never resident).
  void reserve(std::size_t count, std::size_t bytes) {
    marks_.reserve(count / kMarkEvery + 1);
    bytes_.reserve(bytes);
  }
  void push_back(std::string_view text) {
    if (bytes_.size() + text.size() + kMaxLengthBytes > std::numeric_limits<std::uint32_t>::max())
      throw std::length_error("texts of more than 4 GiB in a list");
    if (count_ % kMarkEvery == 0)
      marks_.push_back(static_cast<std::uint32_t>(bytes_.size()));
    buffer::putSize(bytes_, text.size());
    bytes_.append(text);
    ++count_;
  }
  /// Text `i` replaced by `text` (the tests' mutations of a document): by a copy.
  void set(std::size_t i, std::string_view text) {
    TextList out;
    std::size_t j = 0;
    for (std::string_view t : *this)
      out.push_back(j++ == i ? text : t);
    *this = std::move(out);
  }

  class const_iterator : public buffer::ValueIterator<const_iterator, std::string_view> {
  public:
    const_iterator() = default;
    const_iterator(const TextList *list, std::size_t at) : list_(list), at_(at) {}
    std::string_view operator*() const { return list_->textAt(at_); }
    const_iterator &operator++() {
      at_ = list_->after(at_);
      return *this;
    }
    using buffer::ValueIterator<const_iterator, std::string_view>::operator++;
    bool operator==(const const_iterator &o) const { return at_ == o.at_; }

  private:
    const TextList *list_ = nullptr;
    std::size_t at_ = 0; // where the text's length starts
  };
  const_iterator begin() const { return {this, 0}; }
  const_iterator end() const { return {this, bytes_.size()}; }

  bool operator==(const TextList &) const = default;
  friend bool operator==(const TextList &a, const std::vector<std::string> &b) {
    if (a.size() != b.size())
      return false;
    auto x = a.begin();
    for (const std::string &y : b)
      if (*x++ != y)
        return false;
    return true;
  }
  /// `["a", "b"]`, for a test's message.
  friend std::ostream &operator<<(std::ostream &out, const TextList &texts) {
    out << '[';
    const char *comma = "\"";
    for (std::string_view t : texts) {
      out << comma << t << '"';
      comma = ", \"";
    }
    return out << ']';
  }

private:
  static constexpr std::size_t kMarkEvery = 64;
  static constexpr std::size_t kMaxLengthBytes = 5; // the LEB128 of a length below 2^32

  std::string_view textAt(std::size_t at) const {
    const char *p = bytes_.data() + at;
    const std::size_t n = buffer::getSize(p);
    return {p, n};
  }
  /// Where the text after the one at `at` starts.
  std::size_t after(std::size_t at) const {
    const std::string_view text = textAt(at);
    return static_cast<std::size_t>(text.data() + text.size() - bytes_.data());
  }

  std::string bytes_;
  std::vector<std::uint32_t> marks_; // where texts 0, 64, 128, ... start in bytes_
  std::size_t count_ = 0;
};

} // namespace lo
