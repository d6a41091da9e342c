// Writers of selection's inputs (docs/spec.md §10.6): a graph in upstream's `torchlean.ir.v1` and
// a backend profile with its modules, read back by ref/io/graph_reader.hpp to what was written.
#pragma once

#include "ref/interner.hpp"
#include "ref/profile.hpp"

#include <string>

namespace lo::io {

/// `g` as a `torchlean.ir.v1` graph, one node a line, each node's kind parameters under their
/// wire names (`wireParamName`) and a shape of `[1]`. Throws std::logic_error for a kind with a
/// parameter the graph reader does not read (a hard mask, a text).
std::string graphJson(const selection::Graph &g, const Interner &interner);

/// `p` as a backend profile document with its modules (the capsules in edition `edition`).
std::string profileJson(const selection::BackendProfile &p, Edition edition);

} // namespace lo::io
