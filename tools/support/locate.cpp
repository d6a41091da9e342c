#include "tools/support/locate.hpp"

#include "ref/io/error.hpp"

#include <string>

namespace lo::cli {

namespace {

class Scanner {
public:
  explicit Scanner(std::string_view text) : t_(text) {}

  void space() {
    while (i_ < t_.size() && (t_[i_] == ' ' || t_[i_] == '\t' || t_[i_] == '\n' || t_[i_] == '\r'))
      ++i_;
  }
  bool at(char c) {
    space();
    return i_ < t_.size() && t_[i_] == c;
  }
  bool eat(char c) {
    if (!at(c))
      return false;
    ++i_;
    return true;
  }

  /// A string at the cursor, decoded (escapes of ASCII characters; others kept as written, which
  /// only matters for keys no pointer of the checks names).
  std::optional<std::string> string() {
    if (!eat('"'))
      return std::nullopt;
    std::string out;
    while (i_ < t_.size() && t_[i_] != '"') {
      char c = t_[i_++];
      if (c == '\\' && i_ < t_.size()) {
        const char e = t_[i_++];
        switch (e) {
        case 'n': c = '\n'; break;
        case 't': c = '\t'; break;
        case 'r': c = '\r'; break;
        case 'b': c = '\b'; break;
        case 'f': c = '\f'; break;
        case 'u': {
          unsigned v = 0;
          std::size_t n = 0;
          for (; n < 4 && i_ < t_.size(); ++n, ++i_) {
            const char h = t_[i_];
            v = v * 16 + static_cast<unsigned>(h <= '9' ? h - '0' : (h | 0x20) - 'a' + 10);
          }
          c = v < 0x80 ? static_cast<char>(v) : '?';
          break;
        }
        default: c = e; // \" \\ \/
        }
      }
      out += c;
    }
    if (i_ >= t_.size())
      return std::nullopt;
    ++i_;
    return out;
  }

  /// Skips the value at the cursor.
  bool skip() {
    space();
    if (i_ >= t_.size())
      return false;
    if (t_[i_] == '"')
      return string().has_value();
    if (t_[i_] == '{' || t_[i_] == '[') {
      std::size_t depth = 0;
      while (i_ < t_.size()) {
        const char c = t_[i_];
        if (c == '"') {
          if (!string())
            return false;
          continue;
        }
        ++i_;
        if (c == '{' || c == '[')
          ++depth;
        else if ((c == '}' || c == ']') && --depth == 0)
          return true;
      }
      return false;
    }
    while (i_ < t_.size() && t_[i_] != ',' && t_[i_] != '}' && t_[i_] != ']' && t_[i_] != ' ' &&
           t_[i_] != '\n' && t_[i_] != '\r' && t_[i_] != '\t')
      ++i_;
    return true;
  }

  /// Moves the cursor to the member `token` of the object, or the element `token` of the array,
  /// at the cursor.
  bool enter(const std::string &token) {
    if (eat('{')) {
      while (!at('}')) {
        const auto key = string();
        if (!key || !eat(':'))
          return false;
        if (*key == token) {
          space();
          return true;
        }
        if (!skip())
          return false;
        eat(',');
      }
      return false;
    }
    if (eat('[')) {
      if (token.empty() || token.find_first_not_of("0123456789") != std::string::npos)
        return false;
      std::size_t index = std::stoul(token);
      for (; index > 0; --index) {
        if (at(']') || !skip() || !eat(','))
          return false;
      }
      space();
      return !at(']');
    }
    return false;
  }

  std::size_t offset() const { return i_; }

private:
  std::string_view t_;
  std::size_t i_ = 0;
};

} // namespace

std::optional<std::pair<std::size_t, std::size_t>> locate(std::string_view text,
                                                          std::string_view pointer) {
  Scanner s(text);
  s.space();
  std::size_t p = 0;
  while (p < pointer.size()) {
    if (pointer[p] != '/')
      return std::nullopt;
    const std::size_t end = std::min(pointer.find('/', p + 1), pointer.size());
    std::string token;
    for (std::size_t i = p + 1; i < end; ++i) // RFC 6901: ~1 is '/', ~0 is '~'
      if (pointer[i] == '~' && i + 1 < end && (pointer[i + 1] == '0' || pointer[i + 1] == '1'))
        token += pointer[++i] == '1' ? '/' : '~';
      else
        token += pointer[i];
    if (token.size() > 18 && token.find_first_not_of("0123456789") == std::string::npos)
      return std::nullopt; // no index that large
    if (!s.enter(token))
      return std::nullopt;
    p = end;
  }
  return io::lineColumn(text, s.offset());
}

} // namespace lo::cli
