// `explain` of a selection check (docs/spec.md §10.8): what it finds and a minimal example, the
// graph, the profile and the candidate written in the edition asked for, read back by that
// edition's readers, and the report `check-plan` gives for them.
#pragma once

#include "checks/selection.hpp"
#include "ref/io/error.hpp"
#include "ref/io/source.hpp"

#include <stdexcept>
#include <string>

namespace lo::cli {

/// `read` of `text`, the example's file `name`, in `edition`: an example the edition's reader
/// refuses is a bug of the catalogue (docs/checks.md), never printed. Every `explain` example,
/// of a check and of a selection check, is read back so.
template <class Read>
auto readExampleBack(const std::string &text, const char *name, Edition edition, Read read) {
  try {
    return read(io::sourceFromString(name, text));
  } catch (const io::InputError &e) {
    throw std::logic_error(std::string("explain: the example's ") + name +
                           " is not valid in edition " + std::string(spelling(edition)) + ": " +
                           io::formatError(e));
  }
}

/// Writes the explanation of `d` in edition `edition` to `out` (a path, or - for standard
/// output); the exit status.
int explainSelection(Departure d, Edition edition, const std::string &out);

} // namespace lo::cli
