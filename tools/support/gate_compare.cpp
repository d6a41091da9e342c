#include "tools/support/gate_compare.hpp"

#include "ref/io/error.hpp"
#include "ref/io/gate_writer.hpp"
#include "tools/support/report.hpp"

#include <simdjson.h>

#include <algorithm>
#include <map>
#include <set>

namespace lo::cli {

namespace {

using simdjson::dom::element;
using simdjson::dom::element_type;

/// A member name in a JSON pointer (RFC 6901: `~` as `~0`, `/` as `~1`), shown safely.
std::string pointerPart(std::string_view key) { return shownText(io::pointerToken(key), 80); }

/// An object's or an array's view (by value: it must outlive the loop over it).
simdjson::dom::object objectOf(element e) {
  simdjson::dom::object o;
  if (e.get_object().get(o))
    return {};
  return o;
}
simdjson::dom::array arrayOf(element e) {
  simdjson::dom::array a;
  if (e.get_array().get(a))
    return {};
  return a;
}

[[noreturn]] void fail(const std::string &pointer, const std::string &what) {
  throw GateResultError(pointer, what);
}

/// The canonical text of a value: members sorted by name, strings escaped by io::Sink, numbers
/// as simdjson minifies them, no white space.
void canonical(io::Sink &out, element e) {
  switch (e.type()) {
  case element_type::ARRAY: {
    out << '[';
    bool first = true;
    for (element x : arrayOf(e)) {
      out << (first ? "" : ",");
      first = false;
      canonical(out, x);
    }
    out << ']';
    return;
  }
  case element_type::OBJECT: {
    std::vector<std::pair<std::string_view, element>> members;
    for (auto field : objectOf(e))
      members.emplace_back(field.key, field.value);
    std::stable_sort(members.begin(), members.end(),
                     [](const auto &a, const auto &b) { return a.first < b.first; });
    out << '{';
    for (std::size_t i = 0; i < members.size(); ++i) {
      out << (i ? "," : "");
      out.jsonString(members[i].first);
      out << ':';
      canonical(out, members[i].second);
    }
    out << '}';
    return;
  }
  case element_type::STRING: out.jsonString(e.get_string().value_unsafe()); return;
  default: out << simdjson::minify(e); return;
  }
}

std::string canonicalText(element e) {
  std::string text;
  io::Sink out(text);
  canonical(out, e);
  out.flush();
  return text;
}

std::string plural(std::size_t n, const char *word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

std::string kindList(const std::vector<GateFailureKind> &kinds) {
  std::string out;
  for (GateFailureKind k : kinds)
    out += (out.empty() ? "" : ", ") + std::string(spelling(k));
  return out.empty() ? "none" : out;
}

/// The six fields of an obligation report (docs/spec.md §6.1), in the order of `seen` bits.
constexpr std::string_view kReportFields[] = {"op",    "capsuleName", "obligation",
                                              "claim", "evidence",    "disposition"};

} // namespace

struct GateComparer::Impl {
  simdjson::dom::parser parser;

  element parse(std::string_view text) {
    element doc;
    if (auto err = parser.parse(text.data(), text.size(), true).get(doc))
      fail("/", std::string("not JSON: ") + simdjson::error_message(err));
    return doc;
  }

  std::string report(element r, const std::string &at) {
    if (!r.is_object())
      fail(at, "expected an obligation report object");
    unsigned seen = 0;
    for (auto field : objectOf(r)) {
      const auto i = static_cast<std::size_t>(
          std::find(std::begin(kReportFields), std::end(kReportFields), field.key) -
          std::begin(kReportFields));
      const std::string where = at + "/" + pointerPart(field.key);
      if (i == std::size(kReportFields))
        fail(where, "unknown field of an obligation report");
      if (seen & (1u << i))
        fail(where, "duplicate field");
      seen |= 1u << i;
      const bool object = i == 3 || i == 4;
      if (object ? !field.value.is_object() : !field.value.is_string())
        fail(where, object ? "expected an object" : "expected a string");
    }
    for (std::size_t i = 0; i < std::size(kReportFields); ++i)
      if (!(seen & (1u << i)))
        fail(at, "missing field \"" + std::string(kReportFields[i]) + "\"");
    return canonicalText(r);
  }

  void policy(element p, ReadGateResult &out) {
    if (!p.is_object())
      fail("/policy", "expected an object");
    unsigned seen = 0;
    for (auto field : objectOf(p)) {
      const std::string where = "/policy/" + pointerPart(field.key);
      if (field.key == "name") {
        std::string_view name;
        if (field.value.get_string().get(name) ||
            (name != "custom" && !policyPreset(name).has_value()))
          fail(where, "expected \"verified\", \"checked\", \"external\" or \"custom\"");
        if (seen & 1u)
          fail(where, "duplicate field");
        seen |= 1u;
        out.policyName = name;
        continue;
      }
      std::size_t i = 0;
      while (i < std::size(kPolicyFlags) && kPolicyFlags[i].name != field.key)
        ++i;
      if (i == std::size(kPolicyFlags))
        fail(where, "unknown field of a policy");
      if (seen & (2u << i))
        fail(where, "duplicate field");
      seen |= 2u << i;
      bool b = false;
      if (field.value.get_bool().get(b))
        fail(where, "expected true or false");
      out.policy.*kPolicyFlags[i].field = b;
    }
    if (!(seen & 1u))
      fail("/policy", "missing field \"name\"");
    for (std::size_t i = 0; i < std::size(kPolicyFlags); ++i)
      if (!(seen & (2u << i)))
        fail("/policy", "missing field \"" + std::string(kPolicyFlags[i].name) + "\"");
  }

  std::vector<ReadGateResult::Failure> failures(element f) {
    simdjson::dom::array list;
    if (f.get_array().get(list))
      fail("/failures", "expected an array");
    std::vector<ReadGateResult::Failure> out;
    std::set<GateFailureKind> kinds;
    std::size_t index = 0;
    for (element x : list) {
      const std::string at = "/failures/" + std::to_string(index++);
      if (!x.is_object())
        fail(at, "expected a failure object {\"kind\", \"reports\"}");
      ReadGateResult::Failure failure;
      bool haveKind = false, haveReports = false;
      for (auto field : objectOf(x)) {
        const std::string where = at + "/" + pointerPart(field.key);
        if (field.key == "kind") {
          std::string_view k;
          std::optional<GateFailureKind> kind;
          if (field.value.get_string().get(k) || !(kind = parseSpelling<GateFailureKind>(k)))
            fail(where, "expected one of " + joinedSpellings<GateFailureKind>());
          if (haveKind)
            fail(where, "duplicate field");
          if (!kinds.insert(*kind).second)
            fail(where, "failure kind " + std::string(spelling(*kind)) + " listed twice");
          failure.kind = *kind;
          haveKind = true;
        } else if (field.key == "reports") {
          simdjson::dom::array reports;
          if (field.value.get_array().get(reports))
            fail(where, "expected an array of obligation reports");
          if (haveReports)
            fail(where, "duplicate field");
          std::size_t r = 0;
          for (element report : reports)
            failure.reports.push_back(this->report(report, where + "/" + std::to_string(r++)));
          if (failure.reports.empty())
            fail(where, "a failure lists at least one report");
          haveReports = true;
        } else {
          fail(where, "unknown field of a failure");
        }
      }
      if (!haveKind || !haveReports)
        fail(at, std::string("missing field \"") + (haveKind ? "reports" : "kind") + "\"");
      out.push_back(std::move(failure));
    }
    return out;
  }
};

GateComparer::GateComparer() : impl_(std::make_unique<Impl>()) {}
GateComparer::~GateComparer() = default;

ReadGateResult GateComparer::read(std::string_view text) {
  const element doc = impl_->parse(text);
  if (!doc.is_object())
    fail("/", "expected a gate result object (nn-backend/gate-result)");
  ReadGateResult out;
  bool havePolicy = false, haveVerdict = false, haveFailures = false;
  std::set<std::string_view> keys;
  for (auto field : objectOf(doc)) {
    const std::string where = "/" + pointerPart(field.key);
    if (!keys.insert(field.key).second)
      fail(where, "duplicate field");
    if (field.key == "format") {
      std::string_view format;
      if (field.value.get_string().get(format) || format != "nn-backend/gate-result")
        fail(where, "expected \"nn-backend/gate-result\"");
    } else if (field.key == "version") {
      std::uint64_t version = 0;
      if (field.value.get_uint64().get(version) || version != 1)
        fail(where, "expected 1");
    } else if (field.key == "policy") {
      impl_->policy(field.value, out);
      havePolicy = true;
    } else if (field.key == "verdict") {
      std::string_view verdict;
      if (field.value.get_string().get(verdict) || (verdict != "accepted" && verdict != "rejected"))
        fail(where, "expected \"accepted\" or \"rejected\"");
      out.accepted = verdict == "accepted";
      haveVerdict = true;
    } else if (field.key == "failures") {
      out.failures = impl_->failures(field.value);
      haveFailures = true;
    } else {
      fail(where, "unknown field of a gate result");
    }
  }
  if (!havePolicy || !haveVerdict || !haveFailures)
    fail("/", std::string("missing field \"") +
                  (!havePolicy    ? "policy"
                   : !haveVerdict ? "verdict"
                                  : "failures") +
                  "\"");
  if (out.accepted != out.failures.empty())
    fail("/verdict", out.accepted ? "\"accepted\", but /failures lists " +
                                        plural(out.failures.size(), "failure")
                                  : "\"rejected\", but /failures is empty");
  return out;
}

GateComparison GateComparer::compare(std::string_view policyName, const AssurancePolicy &policy,
                                     const GateResult &expected,
                                     const std::vector<ObligationReport> &audit,
                                     const ReadGateResult &actual, bool exact) {
  const auto canonicalOf = [&](const ObligationReport &r) {
    std::string text;
    io::Sink out(text);
    io::writeObligationReport(out, r);
    out.flush();
    return canonicalText(impl_->parse(text));
  };
  // A report in words: the reference's line for it when the audit has it, else its JSON.
  std::map<std::string, std::string> named;
  for (const ObligationReport &r : audit)
    named.emplace(canonicalOf(r), io::reportLine(r));
  const auto words = [&](const std::string &c) {
    const auto it = named.find(c);
    return it != named.end() ? shownText(it->second, 400) : "the report " + shownText(c, 400);
  };
  std::vector<std::vector<std::string>> want;
  std::vector<GateFailureKind> wantKinds, haveKinds;
  for (const GateFailure &f : expected.failures) {
    wantKinds.push_back(f.kind);
    want.emplace_back();
    for (const ObligationReport &r : f.reports)
      want.back().push_back(canonicalOf(r));
  }
  for (const auto &f : actual.failures)
    haveKinds.push_back(f.kind);
  const std::string under = "under policy " + std::string(policyName) + " ";
  const auto failureWords = [&](GateFailureKind kind, const std::vector<std::string> &reports) {
    return std::string(spelling(kind)) + " (" + plural(reports.size(), "report") + ", e.g. " +
           words(reports.front()) + ")";
  };

  // The verdict.
  if (actual.accepted != expected.accepted()) {
    if (actual.accepted)
      return {GateDifference::acceptsRejected,
              under + "the implementation accepts, the reference rejects: " +
                  failureWords(wantKinds.front(), want.front()),
              "/verdict"};
    return {GateDifference::rejectsAccepted,
            under +
                "the implementation rejects, the reference accepts: the implementation "
                "reports " +
                failureWords(haveKinds.front(), actual.failures.front().reports),
            "/verdict"};
  }
  // The failure kinds, in order.
  if (haveKinds != wantKinds) {
    const std::string both = under + "both reject, but the implementation's failure kinds are " +
                             kindList(haveKinds) + " and the reference's " + kindList(wantKinds) +
                             ": ";
    for (std::size_t i = 0; i < wantKinds.size(); ++i)
      if (std::find(haveKinds.begin(), haveKinds.end(), wantKinds[i]) == haveKinds.end())
        return {GateDifference::kinds,
                both + "the implementation misses " + failureWords(wantKinds[i], want[i]),
                "/failures"};
    for (std::size_t i = 0; i < haveKinds.size(); ++i)
      if (std::find(wantKinds.begin(), wantKinds.end(), haveKinds[i]) == wantKinds.end())
        return {GateDifference::kinds,
                both + "the reference has no " +
                    failureWords(haveKinds[i], actual.failures[i].reports),
                "/failures/" + std::to_string(i)};
    return {GateDifference::kinds,
            both + "the same kinds in another order (docs/spec.md §6.3 "
                   "lists them in one order)",
            "/failures"};
  }
  // The reports of each kind: as lists (exact) or as sets.
  for (std::size_t i = 0; i < want.size(); ++i) {
    const std::vector<std::string> &have = actual.failures[i].reports, &need = want[i];
    const std::string failure =
        under + "the implementation's " + std::string(spelling(wantKinds[i])) + " failure (" +
        plural(have.size(), "report") + ", the reference's " + plural(need.size(), "report") + ") ";
    const std::string at = "/failures/" + std::to_string(i);
    std::map<std::string, std::size_t> haveCount, needCount;
    for (const auto &r : have)
      ++haveCount[r];
    for (const auto &r : need)
      ++needCount[r];
    for (const auto &r : need)
      if (!haveCount.count(r))
        return {GateDifference::reports, failure + "lacks " + words(r), at};
    for (const auto &r : have)
      if (!needCount.count(r))
        return {GateDifference::reports,
                failure + "has a report the reference does not: " + words(r), at};
    if (!exact)
      continue;
    for (const auto &[r, n] : needCount)
      if (haveCount[r] != n)
        return {GateDifference::reports,
                failure + "lists " + words(r) + " " + plural(haveCount[r], "time") +
                    ", the reference " + plural(n, "time"),
                at};
    for (std::size_t j = 0; j < need.size(); ++j)
      if (have[j] != need[j])
        return {GateDifference::reports,
                failure + "lists the reports in another order: report " + std::to_string(j) +
                    " is " + words(have[j]) + ", the reference's " + words(need[j]),
                at + "/reports/" + std::to_string(j)};
  }
  // The policy it names.
  if (actual.policyName != policyName || !(actual.policy == policy)) {
    std::string flags;
    for (const auto &flag : kPolicyFlags)
      if (actual.policy.*flag.field != policy.*flag.field)
        flags +=
            " " + std::string(flag.name) + "=" + (actual.policy.*flag.field ? "true" : "false");
    return {GateDifference::policy,
            under + "the gate agrees, but the implementation's result names policy " +
                shownText(actual.policyName, 40) + (flags.empty() ? "" : " with" + flags),
            "/policy"};
  }
  return {};
}

} // namespace lo::cli
