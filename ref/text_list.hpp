// A list of texts held in one buffer, 4 bytes of index a text beside its bytes: the capsule names
// an audit document lists (docs/spec.md §2.6) as a reader keeps them. A std::string a name would
// cost 32 bytes for a 6-byte `"abc",` of the document (docs/performance.md, "Hostile inputs").
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <limits>
#include <ostream>
#include <stdexcept>
#include <string>
#include <string_view>
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

  std::size_t size() const { return ends_.size(); }
  bool empty() const { return ends_.empty(); }
  std::string_view operator[](std::size_t i) const {
    const std::size_t begin = i == 0 ? 0 : ends_[i - 1];
    return std::string_view(bytes_).substr(begin, ends_[i] - begin);
  }
  std::string_view back() const { return (*this)[size() - 1]; }

  /// Room for `count` texts of `bytes` bytes in all (pages never written are never resident).
  void reserve(std::size_t count, std::size_t bytes) {
    ends_.reserve(count);
    bytes_.reserve(bytes);
  }
  void push_back(std::string_view text) {
    if (bytes_.size() + text.size() > std::numeric_limits<std::uint32_t>::max())
      throw std::length_error("texts of more than 4 GiB in a list");
    bytes_.append(text);
    ends_.push_back(static_cast<std::uint32_t>(bytes_.size()));
  }
  /// Text `i` replaced by `text` (the tests' mutations of a document): by a copy.
  void set(std::size_t i, std::string_view text) {
    TextList out;
    for (std::size_t j = 0; j < size(); ++j)
      out.push_back(j == i ? text : (*this)[j]);
    *this = std::move(out);
  }

  class const_iterator {
  public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = std::string_view;
    using difference_type = std::ptrdiff_t;
    using pointer = void;
    using reference = std::string_view;
    const_iterator() = default;
    const_iterator(const TextList *list, std::size_t i) : list_(list), i_(i) {}
    std::string_view operator*() const { return (*list_)[i_]; }
    const_iterator &operator++() {
      ++i_;
      return *this;
    }
    const_iterator operator++(int) {
      const_iterator was = *this;
      ++i_;
      return was;
    }
    bool operator==(const const_iterator &o) const { return i_ == o.i_; }

  private:
    const TextList *list_ = nullptr;
    std::size_t i_ = 0;
  };
  const_iterator begin() const { return {this, 0}; }
  const_iterator end() const { return {this, size()}; }

  bool operator==(const TextList &) const = default;
  friend bool operator==(const TextList &a, const std::vector<std::string> &b) {
    if (a.size() != b.size())
      return false;
    for (std::size_t i = 0; i < a.size(); ++i)
      if (a[i] != b[i])
        return false;
    return true;
  }
  /// `["a", "b"]`, for a test's message.
  friend std::ostream &operator<<(std::ostream &out, const TextList &texts) {
    out << '[';
    for (std::size_t i = 0; i < texts.size(); ++i)
      out << (i ? ", \"" : "\"") << texts[i] << '"';
    return out << ']';
  }

private:
  std::string bytes_;
  std::vector<std::uint32_t> ends_; // where each text ends in bytes_
};

} // namespace lo
