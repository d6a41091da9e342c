#include "ref/io/contract_reader.hpp"

namespace lo::io::detail {

void failFieldNotInEdition(JsonReader &r, std::string_view name, std::string_view what,
                           EditionSet fits) {
  r.failAtPointer(r.pointer() + "/" + std::string(name),
                  "field \"" + std::string(name) + "\" of " + std::string(what) +
                      " is not in edition " + std::string(spelling(r.edition())) + "; " +
                      editionHint(fits, r.edition()));
}

void failMissingInEdition(JsonReader &r, const char *start, std::string_view name,
                          std::string_view what, EditionSet otherwise) {
  std::string message = "missing field \"" + std::string(name) + "\" in " + std::string(what) +
                        " of edition " + std::string(spelling(r.edition())) + "; without it, " +
                        editionHint(otherwise, r.edition());
  if (!start)
    r.failAtPointer(r.pointer(), std::move(message));
  r.fail(start, std::move(message));
}

} // namespace lo::io::detail

namespace lo::io {

#define LO_INSTANTIATE_READER(K)                                                                   \
  template RecordTable<K>::Value readRecord<K>(JsonReader &, od::value &);
LO_RECORD_READERS(LO_INSTANTIATE_READER)
#undef LO_INSTANTIATE_READER

} // namespace lo::io
