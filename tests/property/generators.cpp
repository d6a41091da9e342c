#include "tests/property/generators.hpp"
#include "tests/seed.hpp"

#include "ref/io/reader.hpp"
#include "tools/plans/kinds.hpp"
#include "tools/plans/spelling.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <functional>
#include <optional>
#include <ostream>
#include <unordered_set>

namespace lo::prop {

namespace {

// --- Vocabulary tables --------------------------------------------------------------------------

template <class E> std::vector<E> allOf() {
  std::vector<E> out;
  for (std::size_t i = 0; i < vocabularySize<E>(); ++i)
    out.push_back(static_cast<E>(i));
  return out;
}

template <class E> rc::Gen<E> genEnum() { return rc::gen::elementOf(allOf<E>()); }

/// Reads a generated seed a few bits at a time. A seed of zero decodes to the first value of every
/// choice, and RapidCheck shrinks seeds towards zero, so shrinking simplifies.
class Bits {
public:
  explicit Bits(std::span<const std::uint64_t> words) : words_(words) {}
  std::uint64_t take(unsigned n) {
    std::uint64_t v = 0;
    for (unsigned i = 0; i < n; ++i, ++at_) {
      const std::size_t w = at_ / 64;
      const std::uint64_t bit = w < words_.size() ? (words_[w] >> (at_ % 64)) & 1 : 0;
      v |= bit << i;
    }
    return v;
  }

private:
  std::span<const std::uint64_t> words_;
  std::size_t at_ = 0;
};

/// The choices of the suite's plan generator (tools/plans/choices.hpp) read from seed words by
/// Bits: zero words answer 0 to every choice, the simplest value the generator has, so that a
/// seed RapidCheck shrinks towards zero is a simpler choice.
class BitsChoices final : public plans::Choices {
public:
  explicit BitsChoices(Bits &bits) : bits_(bits) {}
  std::uint64_t below(std::uint64_t n) override {
    if (n <= 1)
      return 0;
    const unsigned width = std::min(64u, static_cast<unsigned>(std::bit_width(n - 1)) + 2);
    return bits_.take(width) % n;
  }

private:
  Bits &bits_;
};

/// A capsule for `op` drawn by the suite's generator (plans::randomCapsule, its texts the suite's)
/// from kCapsuleWords seed words; zero words give the first value of every choice.
KernelCapsule decodeCapsule(BackendOp op, std::span<const std::uint64_t> seed, Edition edition) {
  Bits b(seed);
  BitsChoices choices(b);
  return plans::randomCapsule(choices, op, plans::Vocabulary::suite, edition);
}

/// Enough bits for every choice of a capsule (about 250 of them).
constexpr std::size_t kCapsuleWords = 6;

rc::Gen<std::vector<std::uint64_t>> genWords(std::size_t n) {
  return rc::gen::container<std::vector<std::uint64_t>>(n, rc::gen::arbitrary<std::uint64_t>());
}

/// Ops that several kinds map to, or that coalesce in real models, drawn more often; only ops of
/// `edition`.
BackendOp decodePoolOp(std::uint64_t v, Edition edition) {
  using B = BackendOp;
  static constexpr B common[] = {B::relu, B::add, B::matmul, B::max_pool, B::reshape, B::permute};
  std::vector<BackendOp> all;
  if (hasSeedCapsule(edition)) {
    for (BackendOp op : plannableOps())
      if (inEdition(op, edition))
        all.push_back(op);
  } else {
    all = plans::plannedOps(edition);
  }
  const BackendOp usual = common[(v / 4) % 6];
  const bool planned = std::find(all.begin(), all.end(), usual) != all.end();
  return v % 4 != 3 && planned ? usual : all[(v / 4) % all.size()];
}

struct Pool {
  std::vector<KernelCapsule> capsules;
  std::vector<bool> spellDefaults;
};

/// The pool: base capsules (an op word and kCapsuleWords seed words each) and twins (one word
/// each: which base; the same capsule with its defaults spelled the other way, one twin in eight,
/// or else a near-collision drawn as the suite draws them, plans::variant, from the word's upper
/// bits), each with its choice of spelling the defaults.
Pool decodePool(const std::vector<std::vector<std::uint64_t>> &bases,
                const std::vector<std::uint64_t> &twins, Edition edition) {
  Pool pool;
  for (const auto &words : bases) {
    pool.capsules.push_back(
        decodeCapsule(decodePoolOp(words.at(0), edition), std::span(words).subspan(1), edition));
    pool.spellDefaults.push_back((words[0] >> 40) & 1);
  }
  for (std::uint64_t t : twins) {
    const std::size_t from = t % bases.size();
    if ((t / 8) % 8 == 7) { // the spelling twin
      pool.capsules.push_back(pool.capsules[from]);
      pool.spellDefaults.push_back(!pool.spellDefaults[from]);
      continue;
    }
    const std::uint64_t salt = t / 64;
    Bits b(std::span(&salt, 1));
    BitsChoices choices(b);
    pool.capsules.push_back(
        plans::variant(choices, pool.capsules[from], plans::Vocabulary::suite, edition));
    pool.spellDefaults.push_back(((t >> 20) & 1) != 0);
  }
  return pool;
}

/// One SplitMix64 step from `x`: the suite's Rng (tools/plans/choices.hpp) seeded with it.
std::uint64_t splitmix(std::uint64_t x) { return plans::Rng(x).next(); }

/// A kind of `op` from a seed, by the suite's generator (tools/plans/kinds.hpp: which of the op's
/// kinds, and parameters that make sense for it). A seed of zero gives the op's first kind with
/// its smallest parameters; any other seed is stretched by SplitMix64 into the bits a kind needs.
OpKind decodeKind(BackendOp op, std::uint64_t seed, Edition edition = test::seed::kEdition) {
  const std::uint64_t words[] = {seed, seed ? splitmix(seed) : 0, seed ? splitmix(~seed) : 0};
  Bits b(words);
  BitsChoices choices(b);
  OpKind k = plans::randomKind(choices, choices.pick(plans::kindsOf(op, edition)));
  // A HardMask in the one encoding the reader gives back (ref/opkind.hpp).
  for (std::size_t i = 0; i < k.params.size(); ++i)
    if (signature(k.tag).params[i].type == ParamType::hardMask) {
      const HardMaskView m = decodeHardMask(k.params[i]);
      std::vector<std::uint64_t> allowed(m.allowed.begin(), m.allowed.end());
      for (auto &a : allowed)
        a = a ? 1 : 0;
      k.params[i] = encodeHardMask(m.shape, allowed);
    }
  return k;
}

/// A run: a capsule of the pool, a geometric length (P(n) = 2^-n, mean 2) and one or two kinds
/// of the capsule's op that its nodes alternate.
void appendRun(std::vector<KernelSpec> &out, std::uint64_t seed,
               const std::vector<KernelCapsule> &pool, int cap, Edition edition) {
  Bits b(std::span(&seed, 1));
  const std::size_t capsule = b.take(6) % pool.size();
  const int length = std::min(cap, 1 + std::countr_one(b.take(16)));
  const BackendOp op = pool[capsule].op;
  const OpKind first = decodeKind(op, b.take(41), edition);
  const OpKind second = b.take(1) ? decodeKind(op, splitmix(seed), edition) : first;
  for (int i = 0; i < length; ++i)
    out.push_back(KernelSpec{0, i % 2 ? second : first, op, capsule});
}

enum class IdStyle : std::uint8_t { ascending, descending, hinted, nearLimit };

/// Node ids made unique: a taken id is bumped to the next free one (modulo 2^63).
void assignIds(std::vector<KernelSpec> &kernels, IdStyle style, std::uint64_t base,
               const std::vector<std::uint64_t> &hints) {
  std::unordered_set<NodeId> used;
  used.reserve(kernels.size() * 2);
  const std::size_t n = kernels.size();
  for (std::size_t i = 0; i < n; ++i) {
    NodeId id = 0;
    switch (style) {
    case IdStyle::ascending: id = base + i; break;
    case IdStyle::descending: id = base + (n - i); break;
    case IdStyle::hinted: id = hints.empty() ? i : hints[i % hints.size()]; break;
    case IdStyle::nearLimit: id = kNodeIdLimit - 1 - (i * (base + 1)) % kNodeIdLimit; break;
    }
    id %= kNodeIdLimit;
    while (!used.insert(id).second)
      id = (id + 1) % kNodeIdLimit;
    kernels[i].nodeId = id;
  }
}

/// Distinct table keys: the capsule names (with `#n` on a clash), indexes, or keys with the
/// characters JSON pointers escape.
std::vector<std::string> makeKeys(const std::vector<KernelCapsule> &pool, int style) {
  std::vector<std::string> keys;
  std::unordered_set<std::string> taken;
  for (std::size_t i = 0; i < pool.size(); ++i) {
    std::string want = style == 0   ? pool[i].name
                       : style == 1 ? "c" + std::to_string(i)
                                    : (i == 0 ? std::string() : "~/" + std::to_string(i));
    std::string key = want;
    for (int n = 2; taken.count(key); ++n)
      key = want + "#" + std::to_string(n);
    taken.insert(key);
    keys.push_back(key);
  }
  return keys;
}

// --- How a plan is written -------------------------------------------------------------------

bool styleBit(const PlanSpec &spec, std::size_t i, unsigned shift) {
  return (spec.styleBits >> ((i + shift) % 64)) & 1;
}

bool isInline(const PlanSpec &spec, std::size_t i) {
  return spec.encoding == Encoding::inline_ ||
         (spec.encoding == Encoding::mixed && styleBit(spec, i, 0));
}

} // namespace

// --- Public API ---------------------------------------------------------------------------------

const std::vector<BackendOp> &plannableOps() { return plans::plannedOps(test::seed::kEdition); }

const std::vector<KindTag> &kindsOf(BackendOp op) {
  return plans::kindsOf(op, test::seed::kEdition);
}

rc::Gen<Mode> genMode() { return genEnum<Mode>(); }
rc::Gen<Equality> genEquality() { return genEnum<Equality>(); }

rc::Gen<KernelCapsule> genCapsule(BackendOp op, Edition edition) {
  return rc::gen::map(genWords(kCapsuleWords), [op, edition](const std::vector<std::uint64_t> &w) {
    return decodeCapsule(op, w, edition);
  });
}

rc::Gen<OpKind> genKind(BackendOp op) {
  return rc::gen::map(rc::gen::arbitrary<std::uint64_t>(),
                      [op](std::uint64_t seed) { return decodeKind(op, seed); });
}

// A handful of RapidCheck generators of seed words, decoded into a plan by one function: fast to
// generate (a seed is one pick, not one per field), and every shrink of a seed or of a list of
// seeds decodes to a valid plan. Seeds shrink towards zero, which decodes to the simplest value.
namespace {

/// genPlan, in `edition` when given, else in seed::kEdition or 2026-07 as a style bit says.
rc::Gen<PlanSpec> genPlanOf(PlanShape shape, std::optional<Edition> edition) {
  using Words = std::vector<std::uint64_t>;
  auto bases = rc::gen::mapcat(rc::gen::inRange<std::size_t>(1, 5), [](std::size_t n) {
    return rc::gen::container<std::vector<Words>>(n, genWords(1 + kCapsuleWords));
  });
  auto twins = rc::gen::mapcat(rc::gen::inRange<std::size_t>(0, 7), [](std::size_t n) {
    return rc::gen::container<Words>(n, rc::gen::arbitrary<std::uint64_t>());
  });
  // Runs grow with the size parameter; each run's seed uses all 64 bits whatever the size.
  auto runs = rc::gen::scale(0.4, rc::gen::container<Words>(rc::gen::resize(
                                      rc::kNominalSize, rc::gen::arbitrary<std::uint64_t>())));
  auto hints = rc::gen::container<Words>(rc::gen::arbitrary<std::uint64_t>());
  auto style = genWords(2);
  return rc::gen::map(
      rc::gen::tuple(bases, twins, runs, hints, style),
      [shape, edition](const std::tuple<std::vector<Words>, Words, Words, Words, Words> &t) {
        const auto &[baseWords, twinWords, runWords, hintWords, styleWords] = t;
        PlanSpec spec;
        // Zero decodes to seed::kEdition; 2026-07 is drawn too.
        spec.edition = edition                 ? *edition
                       : (styleWords[0] >> 63) ? Edition::e2026_07
                                               : test::seed::kEdition;
        Pool pool = decodePool(baseWords, twinWords, spec.edition);
        spec.pool = std::move(pool.capsules);
        spec.spellDefaults = std::move(pool.spellDefaults);

        for (std::size_t r = 0; r < runWords.size() && r < shape.maxRuns; ++r)
          appendRun(spec.kernels, runWords[r], spec.pool, shape.maxRunLength, spec.edition);

        Bits b(std::span(&styleWords[0], 1));
        spec.keys = makeKeys(spec.pool, static_cast<int>(b.take(2) % 3));
        spec.encoding = static_cast<Encoding>(b.take(2) % 3);
        spec.header = b.take(2) != 3;
        spec.capsulesFirst = b.take(1) == 0;
        const auto idStyle = static_cast<IdStyle>(b.take(2));
        const std::uint64_t idBase = b.take(10);
        Words small(hintWords.size());
        for (std::size_t i = 0; i < small.size(); ++i)
          small[i] = hintWords[i] % (2 * spec.kernels.size() + 2);
        assignIds(spec.kernels, idStyle, idBase, small);
        spec.styleBits = styleWords[1];
        return spec;
      });
}

} // namespace

rc::Gen<PlanSpec> genPlan(PlanShape shape) { return genPlanOf(shape, std::nullopt); }

rc::Gen<PlanSpec> genPlanIn(Edition edition, PlanShape shape) { return genPlanOf(shape, edition); }

rc::Gen<PlanSpec> genPlanWithoutSharedNeighbours(Equality equality, PlanShape shape) {
  return rc::gen::map(genPlan(shape), [equality](PlanSpec spec) {
    return withoutSharedNeighbours(std::move(spec), equality);
  });
}

PlanSpec samplePlan(std::uint64_t seed, int size, PlanShape shape) {
  return genPlan(shape)(rc::Random(seed), size).value();
}

std::string planJson(const PlanSpec &spec) {
  Interner interner;
  const GraphExecutionPlan plan = buildPlan(spec, interner);
  auto omit = [&](std::size_t c) {
    return spec.spellDefaults[c] ? plans::Omit::none : plans::Omit::all;
  };
  plans::PlanText text;
  text.header = spec.header;
  text.tableFirst = spec.capsulesFirst;
  text.reverseFields = styleBit(spec, 0, 21);
  text.reverseParams = styleBit(spec, 0, 22);
  // The pool is the table (unused entries too), unless every kernel's capsule is inline.
  if (spec.encoding != Encoding::inline_ || styleBit(spec, 0, 7))
    for (std::size_t i = 0; i < spec.pool.size(); ++i)
      text.table.push_back({spec.keys[i], interner.intern(spec.pool[i]), omit(i)});
  for (std::size_t i = 0; i < spec.kernels.size(); ++i) {
    const std::size_t c = spec.kernels[i].capsule;
    plans::PlanText::Kernel &k = text.kernels.emplace_back();
    if (!isInline(spec, i))
      k.entry = c;
    k.omit = omit(c);
    k.kindObject = styleBit(spec, i, 13);
  }
  return plans::chosenPlanJson(interner, plan, text, spec.edition);
}

GraphExecutionPlan buildPlan(const PlanSpec &spec, Interner &interner) {
  std::vector<CapsuleId> ids;
  ids.reserve(spec.pool.size());
  for (const auto &c : spec.pool)
    ids.push_back(interner.intern(c));
  GraphExecutionPlan plan;
  plan.kernels.reserve(spec.kernels.size());
  for (const auto &k : spec.kernels)
    plan.kernels.push_back(
        PlannedNodeKernel{k.nodeId, interner.intern(k.kind), k.op, ids[k.capsule]});
  return plan;
}

GraphExecutionPlan readPlan(const PlanSpec &spec, Interner &interner) {
  return io::readExecutionPlan(io::sourceFromString("<generated>", planJson(spec)), interner,
                               spec.edition);
}

PlanSpec slice(const PlanSpec &spec, std::size_t begin, std::size_t end) {
  PlanSpec out = spec;
  out.kernels.assign(spec.kernels.begin() + static_cast<std::ptrdiff_t>(begin),
                     spec.kernels.begin() + static_cast<std::ptrdiff_t>(end));
  return out;
}

bool sameCapsule(Equality equality, const KernelCapsule &a, const KernelCapsule &b) {
  return equality == Equality::contract ? a == b : sameIdentity(a, b);
}

PlanSpec withoutSharedNeighbours(PlanSpec spec, Equality equality) {
  std::vector<KernelSpec> kept;
  for (auto &k : spec.kernels) {
    if (!kept.empty() && kept.back().op == k.op &&
        sameCapsule(equality, spec.pool[kept.back().capsule], spec.pool[k.capsule]))
      continue;
    kept.push_back(std::move(k));
  }
  spec.kernels = std::move(kept);
  return spec;
}

KernelCapsule contractTwin(const KernelCapsule &c, plans::Collision collision, std::uint64_t salt,
                           Edition edition) {
  Bits b(std::span(&salt, 1)); // zero: the first other value
  BitsChoices choices(b);
  return plans::nearCollision(choices, c, collision, plans::Vocabulary::suite, edition);
}

KernelCapsule contractTwin(const KernelCapsule &c, std::uint64_t salt, Edition edition) {
  // Every collision before `provider` keeps the identity (tools/plans/capsules.hpp).
  constexpr std::uint64_t n = static_cast<std::uint64_t>(plans::Collision::provider);
  return contractTwin(c, static_cast<plans::Collision>(salt % n), salt / n, edition);
}

void showValue(const PlanSpec &spec, std::ostream &os) {
  os << "GraphExecutionPlan (" << spec.kernels.size() << " kernels, " << spec.pool.size()
     << " capsules in the pool):\n"
     << planJson(spec);
}

} // namespace lo::prop
