#include "tools/system/command_line.hpp"

#include <stdexcept>
#include <utility>

namespace lo::system {

std::vector<std::string> splitCommand(std::string_view command) {
  std::vector<std::string> out;
  std::string word;
  bool inWord = false;
  for (std::size_t i = 0; i < command.size(); ++i) {
    const char c = command[i];
    if (c == ' ' || c == '\t' || c == '\n') {
      if (inWord)
        out.push_back(std::move(word));
      word.clear();
      inWord = false;
      continue;
    }
    inWord = true;
    if (c == '\'') {
      const std::size_t end = command.find('\'', i + 1);
      if (end == std::string_view::npos)
        throw std::invalid_argument("unterminated ' in the command");
      word.append(command.substr(i + 1, end - i - 1));
      i = end;
    } else if (c == '"') {
      for (++i;; ++i) {
        if (i >= command.size())
          throw std::invalid_argument("unterminated \" in the command");
        if (command[i] == '"')
          break;
        if (command[i] == '\\' && i + 1 < command.size() &&
            (command[i + 1] == '"' || command[i + 1] == '\\'))
          ++i;
        word.push_back(command[i]);
      }
    } else if (c == '\\' && i + 1 < command.size()) {
      word.push_back(command[++i]);
    } else {
      word.push_back(c);
    }
  }
  if (inWord)
    out.push_back(std::move(word));
  if (out.empty())
    throw std::invalid_argument("the command is empty");
  return out;
}

std::vector<std::string> substitute(const std::vector<std::string> &argv,
                                    const std::map<std::string, std::string> &values) {
  std::vector<std::string> out;
  out.reserve(argv.size());
  for (const std::string &arg : argv) {
    std::string result;
    for (std::size_t i = 0; i < arg.size();) {
      bool replaced = false;
      if (arg[i] == '{') {
        const std::size_t close = arg.find('}', i);
        if (close != std::string::npos) {
          const auto it = values.find(arg.substr(i + 1, close - i - 1));
          if (it != values.end()) {
            result += it->second; // inserted as data: never scanned again
            i = close + 1;
            replaced = true;
          }
        }
      }
      if (!replaced)
        result.push_back(arg[i++]);
    }
    out.push_back(std::move(result));
  }
  return out;
}

} // namespace lo::system
