#include "tools/report/locate.hpp"

#include "ref/io/error.hpp"

#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace lo::report {

namespace {

class Scanner {
public:
  explicit Scanner(std::string_view text) : t_(text) {}

  void space() {
    while (i_ < t_.size() && (t_[i_] == ' ' || t_[i_] == '\t' || t_[i_] == '\n' || t_[i_] == '\r'))
      ++i_;
  }
  bool eat(char c) {
    space();
    if (i_ < t_.size() && t_[i_] == c) {
      ++i_;
      return true;
    }
    return false;
  }
  char peek() {
    space();
    return i_ < t_.size() ? t_[i_] : '\0';
  }
  std::size_t at() const { return i_; }
  bool atEnd() {
    space();
    return i_ >= t_.size();
  }

  /// A string literal, decoded (escapes, \u surrogate pairs) into `out`.
  bool string(std::string &out) {
    out.clear();
    if (!eat('"'))
      return false;
    while (i_ < t_.size()) {
      const char c = t_[i_++];
      if (c == '"')
        return true;
      if (c != '\\') {
        out.push_back(c);
        continue;
      }
      if (i_ >= t_.size())
        return false;
      const char e = t_[i_++];
      switch (e) {
      case 'n': out.push_back('\n'); break;
      case 't': out.push_back('\t'); break;
      case 'r': out.push_back('\r'); break;
      case 'b': out.push_back('\b'); break;
      case 'f': out.push_back('\f'); break;
      case 'u': {
        unsigned cp = 0;
        if (!hex4(cp))
          return false;
        if (cp >= 0xd800 && cp < 0xdc00 && i_ + 1 < t_.size() && t_[i_] == '\\' &&
            t_[i_ + 1] == 'u') {
          i_ += 2;
          unsigned low = 0;
          if (!hex4(low))
            return false;
          cp = 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00);
        }
        utf8(cp, out);
        break;
      }
      default: out.push_back(e); // " \ /
      }
    }
    return false;
  }

  /// Skips one value of any kind.
  bool skip() {
    const char c = peek();
    if (c == '"') {
      std::string ignored;
      return string(ignored);
    }
    if (c == '{' || c == '[') {
      std::size_t depth = 0;
      while (i_ < t_.size()) {
        const char d = t_[i_];
        if (d == '"') {
          std::string ignored;
          if (!string(ignored))
            return false;
          continue;
        }
        ++i_;
        if (d == '{' || d == '[')
          ++depth;
        else if ((d == '}' || d == ']') && --depth == 0)
          return true;
      }
      return false;
    }
    const std::size_t start = i_;
    while (i_ < t_.size() && t_[i_] != ',' && t_[i_] != '}' && t_[i_] != ']' && t_[i_] != ' ' &&
           t_[i_] != '\n' && t_[i_] != '\t' && t_[i_] != '\r')
      ++i_;
    return i_ > start;
  }

private:
  bool hex4(unsigned &v) {
    if (i_ + 4 > t_.size())
      return false;
    for (int k = 0; k < 4; ++k) {
      const char h = t_[i_++];
      v <<= 4;
      if (h >= '0' && h <= '9')
        v |= static_cast<unsigned>(h - '0');
      else if (h >= 'a' && h <= 'f')
        v |= static_cast<unsigned>(h - 'a' + 10);
      else if (h >= 'A' && h <= 'F')
        v |= static_cast<unsigned>(h - 'A' + 10);
      else
        return false;
    }
    return true;
  }
  static void utf8(unsigned cp, std::string &out) {
    if (cp < 0x80) {
      out.push_back(static_cast<char>(cp));
    } else if (cp < 0x800) {
      out.push_back(static_cast<char>(0xc0 | (cp >> 6)));
      out.push_back(static_cast<char>(0x80 | (cp & 0x3f)));
    } else if (cp < 0x10000) {
      out.push_back(static_cast<char>(0xe0 | (cp >> 12)));
      out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3f)));
      out.push_back(static_cast<char>(0x80 | (cp & 0x3f)));
    } else {
      out.push_back(static_cast<char>(0xf0 | (cp >> 18)));
      out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3f)));
      out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3f)));
      out.push_back(static_cast<char>(0x80 | (cp & 0x3f)));
    }
  }

  std::string_view t_;
  std::size_t i_ = 0;
};

/// The pointer's next reference token, unescaped (~1 -> /, ~0 -> ~).
std::string token(std::string_view pointer, std::size_t &at) {
  std::string out;
  ++at; // the '/'
  while (at < pointer.size() && pointer[at] != '/') {
    if (pointer[at] == '~' && at + 1 < pointer.size() &&
        (pointer[at + 1] == '0' || pointer[at + 1] == '1')) {
      out.push_back(pointer[at + 1] == '0' ? '~' : '/');
      at += 2;
    } else {
      out.push_back(pointer[at++]);
    }
  }
  return out;
}

/// The pointers of locateAll as a tree of reference tokens: the walk enters only the containers on
/// some pointer's path, and skips every other value.
struct PointerTree {
  std::vector<std::size_t> requests; // indices of the pointers that end here
  std::map<std::string, std::unique_ptr<PointerTree>> members;
  bool visited = false; // the first occurrence of a duplicate member counts, as in pointerOffset

  PointerTree &child(const std::string &token) {
    auto &c = members[token];
    if (!c)
      c = std::make_unique<PointerTree>();
    return *c;
  }
  /// The children by the array index they name ("1" and "01" both name element 1, as in
  /// pointerOffset); tokens that are no index are left out.
  std::map<std::size_t, std::vector<PointerTree *>> elements() {
    std::map<std::size_t, std::vector<PointerTree *>> out;
    for (auto &[token, c] : members)
      if (!token.empty() && token.size() <= 19 &&
          token.find_first_not_of("0123456789") == std::string::npos)
        out[std::stoull(token)].push_back(c.get());
    return out;
  }
};

/// Walks the value at the scanner against `nodes` (the pointer tree nodes that name it: "1" and
/// "01" name the same element), recording each request's offset; false when the text is not JSON
/// where it walks (the walk then stops).
bool walk(Scanner &s, const std::vector<PointerTree *> &nodes,
          std::vector<std::optional<std::size_t>> &offsets) {
  if (s.atEnd())
    return false;
  bool deeper = false;
  for (PointerTree *node : nodes) {
    node->visited = true;
    for (const std::size_t r : node->requests)
      offsets[r] = s.at();
    deeper |= !node->members.empty();
  }
  if (!deeper)
    return s.skip();
  if (s.peek() == '{') {
    s.eat('{');
    if (s.eat('}'))
      return true;
    std::string key;
    for (;;) {
      if (s.peek() != '"' || !s.string(key) || !s.eat(':'))
        return false;
      std::vector<PointerTree *> children;
      for (PointerTree *node : nodes)
        if (const auto it = node->members.find(key);
            it != node->members.end() && !it->second->visited)
          children.push_back(it->second.get());
      if (!(children.empty() ? s.skip() : walk(s, children, offsets)))
        return false;
      if (s.eat('}'))
        return true;
      if (!s.eat(','))
        return false;
    }
  }
  if (s.peek() == '[') {
    s.eat('[');
    if (s.eat(']'))
      return true;
    // The elements the pointers ask for, in index order: any other element is skipped at once.
    std::map<std::size_t, std::vector<PointerTree *>> wanted;
    for (PointerTree *node : nodes)
      for (auto &[index, children] : node->elements())
        wanted[index].insert(wanted[index].end(), children.begin(), children.end());
    auto next = wanted.begin();
    for (std::size_t index = 0;; ++index) {
      const bool asked = next != wanted.end() && next->first == index;
      if (!(asked ? walk(s, next->second, offsets) : s.skip()))
        return false;
      if (asked)
        ++next;
      if (s.eat(']'))
        return true;
      if (!s.eat(','))
        return false;
    }
  }
  return s.skip(); // a scalar: deeper tokens name nothing
}

} // namespace

std::vector<std::optional<std::pair<std::size_t, std::size_t>>>
locateAll(std::string_view text, const std::vector<std::string_view> &pointers) {
  std::vector<std::optional<std::pair<std::size_t, std::size_t>>> out(pointers.size());
  PointerTree root;
  for (std::size_t i = 0; i < pointers.size(); ++i) {
    const std::string_view pointer = pointers[i];
    if (!pointer.empty() && pointer.front() != '/')
      continue;
    PointerTree *node = &root;
    for (std::size_t at = 0; at < pointer.size();)
      node = &node->child(token(pointer, at));
    node->requests.push_back(i);
  }
  std::vector<std::optional<std::size_t>> offsets(pointers.size());
  Scanner s(text);
  walk(s, {&root}, offsets);
  // Line and column of every offset found, in one pass over the text in offset order.
  std::vector<std::pair<std::size_t, std::size_t>> found; // offset, pointer index
  for (std::size_t i = 0; i < offsets.size(); ++i)
    if (offsets[i] && *offsets[i] < text.size())
      found.emplace_back(*offsets[i], i);
  std::sort(found.begin(), found.end());
  TextPosition p;
  std::size_t done = 0;
  for (const auto &[offset, i] : found) {
    for (; done < offset; ++done) {
      const auto c = static_cast<unsigned char>(text[done]);
      if (c == '\n') {
        ++p.line;
        p.column = 1;
      } else if ((c & 0xc0) != 0x80) {
        ++p.column;
      }
    }
    out[i] = std::pair{p.line, p.column};
  }
  return out;
}

std::optional<std::size_t> pointerOffset(std::string_view json, std::string_view pointer) {
  Scanner s(json);
  if (!pointer.empty() && pointer.front() != '/')
    return std::nullopt;
  std::size_t at = 0;
  while (at < pointer.size()) {
    const std::string want = token(pointer, at);
    if (s.peek() == '{') {
      s.eat('{');
      std::string key;
      bool found = false;
      while (!found) {
        if (s.peek() != '"' || !s.string(key) || !s.eat(':'))
          return std::nullopt;
        if (key == want) {
          found = true;
          break;
        }
        if (!s.skip())
          return std::nullopt;
        if (!s.eat(','))
          return std::nullopt; // '}' or garbage: not there
      }
    } else if (s.peek() == '[') {
      s.eat('[');
      if (want.empty() || want.size() > 19 ||
          want.find_first_not_of("0123456789") != std::string::npos)
        return std::nullopt;
      std::size_t index = std::stoull(want);
      if (s.peek() == ']')
        return std::nullopt;
      for (; index > 0; --index)
        if (!s.skip() || !s.eat(','))
          return std::nullopt;
    } else {
      return std::nullopt;
    }
  }
  s.space();
  if (s.at() >= json.size())
    return std::nullopt;
  return s.at();
}

TextPosition positionOf(std::string_view text, std::size_t offset) {
  const auto [line, column] = io::lineColumn(text, offset);
  return {line, column};
}

std::optional<std::pair<std::size_t, std::size_t>> locate(std::string_view text,
                                                          std::string_view pointer) {
  const std::optional<std::size_t> offset = pointerOffset(text, pointer);
  if (!offset)
    return std::nullopt;
  const TextPosition p = positionOf(text, *offset);
  return std::pair{p.line, p.column};
}

} // namespace lo::report
