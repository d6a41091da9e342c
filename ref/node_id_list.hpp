// A group's node ids (docs/spec.md §2.5) as a lowering holds them: one id in place, more in one
// heap block, in 16 bytes. A lowering of one-node groups then holds no heap block a group
// (docs/performance.md, "Hostile inputs": what a reader keeps must not outgrow the text it read).
#pragma once

#include "ref/ir.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <iterator>
#include <limits>
#include <ostream>
#include <span>
#include <stdexcept>
#include <vector>

namespace lo {

class NodeIdList {
public:
  using value_type = NodeId;
  using size_type = std::size_t;
  using iterator = NodeId *;
  using const_iterator = const NodeId *;

  NodeIdList() noexcept : one_(0) {}
  NodeIdList(std::initializer_list<NodeId> ids) : NodeIdList() { assign(ids.begin(), ids.end()); }
  explicit NodeIdList(std::span<const NodeId> ids) : NodeIdList() {
    assign(ids.begin(), ids.end());
  }
  template <std::input_iterator It> NodeIdList(It first, It last) : NodeIdList() {
    assign(first, last);
  }
  NodeIdList(const NodeIdList &o) : NodeIdList() { assign(o.begin(), o.end()); }
  NodeIdList(NodeIdList &&o) noexcept : NodeIdList() { swap(o); }
  NodeIdList &operator=(NodeIdList o) noexcept {
    swap(o);
    return *this;
  }
  ~NodeIdList() {
    if (!inPlace())
      delete[] many_;
  }

  void swap(NodeIdList &o) noexcept {
    // The union's bytes, whichever member they hold.
    unsigned char held[sizeof(NodeId)];
    std::memcpy(held, &one_, sizeof held);
    std::memcpy(&one_, &o.one_, sizeof held);
    std::memcpy(&o.one_, held, sizeof held);
    std::swap(size_, o.size_);
    std::swap(capacity_, o.capacity_);
  }

  std::size_t size() const { return size_; }
  std::size_t capacity() const { return capacity_; }
  bool empty() const { return size_ == 0; }
  NodeId *data() { return inPlace() ? &one_ : many_; }
  const NodeId *data() const { return inPlace() ? &one_ : many_; }
  NodeId *begin() { return data(); }
  NodeId *end() { return data() + size_; }
  const NodeId *begin() const { return data(); }
  const NodeId *end() const { return data() + size_; }
  NodeId &operator[](std::size_t i) { return data()[i]; }
  const NodeId &operator[](std::size_t i) const { return data()[i]; }
  const NodeId &front() const { return data()[0]; }
  const NodeId &back() const { return data()[size_ - 1]; }
  operator std::span<const NodeId>() const { return {data(), size_}; }
  std::vector<NodeId> vector() const { return {begin(), end()}; }

  /// Room for `n` ids: exactly `n` once it is more than one.
  void reserve(std::size_t n) {
    if (n <= capacity_)
      return;
    if (n > std::numeric_limits<std::uint32_t>::max())
      throw std::length_error("a group of more than 2^32 - 1 node ids");
    auto *grown = new NodeId[n];
    std::copy(begin(), end(), grown);
    if (!inPlace())
      delete[] many_;
    many_ = grown;
    capacity_ = static_cast<std::uint32_t>(n);
  }
  void push_back(NodeId id) {
    if (size_ == capacity_)
      reserve(std::size_t{capacity_} * 2);
    data()[size_++] = id;
  }
  void clear() { size_ = 0; }
  void resize(std::size_t n) {
    reserve(n);
    if (n > size_)
      std::fill(end(), data() + n, NodeId{0});
    size_ = static_cast<std::uint32_t>(n);
  }
  // Editing in the middle, as a vector does (the tests' mutations of a lowering): by a copy.
  template <std::input_iterator It> void insert(const NodeId *at, It first, It last) {
    std::vector<NodeId> all(begin(), end());
    all.insert(all.begin() + (at - begin()), first, last);
    assign(all.begin(), all.end());
  }
  void insert(const NodeId *at, NodeId id) { insert(at, &id, &id + 1); }
  void erase(const NodeId *first, const NodeId *last) {
    NodeId *to = begin() + (first - begin());
    to = std::copy(last, static_cast<const NodeId *>(end()), to);
    size_ = static_cast<std::uint32_t>(to - begin());
  }
  void erase(const NodeId *at) { erase(at, at + 1); }
  template <std::input_iterator It> void assign(It first, It last) {
    clear();
    reserve(static_cast<std::size_t>(std::distance(first, last)));
    for (; first != last; ++first)
      data()[size_++] = *first;
  }

  friend bool operator==(const NodeIdList &a, const NodeIdList &b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end());
  }
  friend bool operator==(const NodeIdList &a, const std::vector<NodeId> &b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end());
  }
  /// `[1, 2, 3]`, for a test's message.
  friend std::ostream &operator<<(std::ostream &out, const NodeIdList &ids) {
    out << '[';
    for (std::size_t i = 0; i < ids.size(); ++i)
      out << (i ? ", " : "") << ids[i];
    return out << ']';
  }

private:
  bool inPlace() const { return capacity_ <= 1; }
  union {
    NodeId one_;
    NodeId *many_;
  };
  std::uint32_t size_ = 0;
  std::uint32_t capacity_ = 1; // 1: the id in place
};

static_assert(sizeof(NodeIdList) == 16);

} // namespace lo
