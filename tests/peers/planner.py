#!/usr/bin/env python3
"""A small planner of the lean-dojo lineage (docs/spec.md §10), for `diff --planner` tests.

usage: planner.py GRAPH PROFILE OUT [MUTANT]
       planner.py --worker [MUTANT]

Reads a torchlean.ir.v1 graph and a backend profile with its modules, and writes the
GraphExecutionPlan that selection gives (docs/spec.md §10.3-§10.5) to OUT, or exits 2 with the
planning failure on standard error. MUTANT makes it wrong in one way, for the tests that show
`diff --planner` catches each at its defaults (with --worker, the planner worker of
`diff --planner-worker`, docs/conformance.md "The planner worker protocol": one JSON request line
in, one answer line out, the plan written to the request's "out"):

  skip-preference              `prefer P` chooses the first eligible capsule, of any provider
  ignore-availability          capsules the availability does not declare are chosen too
  preference-overrides-trust   under `prefer P` a capsule of P is chosen even if trust rejects it
  plans-input                  nodes without runtime work (`input`, ...) are planned too
  last-eligible                the last eligible capsule, not the first
"""
import json
import re
import sys

# The kind table (docs/spec.md §1.7): the op each kind the graphs carry maps to; None: no runtime
# work. Held to the oracle by the test that runs this planner conforming (any kind drawn but
# missing or wrong here is a departure).
OP_OF = {
    "input": None, "const": None, "detach": None,
    "permute": "permute", "transpose": "permute", "rand_uniform": "rand_uniform",
    "bernoulli_mask": "bernoulli_mask", "add": "add", "sub": "sub", "mul_elem": "mul",
    "abs": "abs", "sqrt": "sqrt", "inv": "inv", "max_elem": "max", "min_elem": "min",
    "mse_loss": "mse_loss", "reduce_sum": "reduce_sum", "reduce_mean": "reduce_mean",
    "sum": "reduce_sum", "matmul": "matmul", "linear": "linear", "relu": "relu", "tanh": "tanh",
    "sigmoid": "sigmoid", "exp": "exp", "log": "log", "sin": "sin", "cos": "cos",
    "softmax": "softmax", "layernorm": "layer_norm", "reshape": "reshape", "flatten": "reshape",
    "concat": "concat", "max_pool": "max_pool", "avg_pool": "avg_pool",
    "broadcast_to": "broadcast", "conv": "conv", "batch_norm_eval": "batch_norm",
    "softplus": "softplus", "safe_log": "safe_log",
}
NODE_FIELDS = {"id", "kind", "parents", "shape", "value_kind"}
# The mutants of the docstring, in its order.
MUTANTS = ("skip-preference", "ignore-availability", "preference-overrides-trust", "plans-input",
           "last-eligible")
NO_VJP = {"rand_uniform", "bernoulli_mask"}  # `BackendOp.requiresVJP` is false


class PlanningError(Exception):
    pass


def plan_param(tag, wire):
    """A kind parameter's name in a plan from its torchlean.ir.v1 name (docs/spec.md §10.6)."""
    if tag == "flatten" and wire == "value_shape":
        return "s"
    if wire in ("from_shape", "to_shape"):
        return {"from_shape": "s1", "to_shape": "s2"}[wire]
    return re.sub(r"_([a-z])", lambda m: m.group(1).upper(), wire)


def plan_kind(node):
    params = {plan_param(node["kind"], k): v for k, v in node.items() if k not in NODE_FIELDS}
    return {"tag": node["kind"], **params} if params else node["kind"]


def aligned(c):
    """`KernelCapsule.contractsAligned`: each claim matches its field, the op and the VJP mode."""
    tags = {"shapeContract": "shapeSafety", "layoutContract": "layoutCompatibility",
            "valueContract": "valueRefinement"}
    for field, tag in tags.items():
        claim = c[field]["claim"]
        if claim["tag"] != tag or claim["op"] != c["op"]:
            return False
    claim = c["vjpContract"]["claim"]
    if claim["op"] != c["op"]:
        return False
    if claim["tag"] == "vjpRefinement":
        return claim.get("mode") == c["vjpMode"] and c["vjpMode"] != "none"
    return claim["tag"] == "vjpUnavailable" and c["vjpMode"] == "none"


def admissible(policy, c, mutant):
    pref = policy.get("provider", "auto")
    trusted = c["trustLevel"] != "trusted-external" or policy.get("assurance") == "external"
    if mutant == "preference-overrides-trust" and isinstance(pref, dict) and \
            pref.get("prefer") == c["provider"]:
        trusted = True
    only = not isinstance(pref, dict) or "only" not in pref or pref["only"] == c["provider"]
    mode = policy.get("vjpMode", "torchlean-tape")
    if mode == "none" or c["op"] in NO_VJP:
        vjp = True
    elif mode == "torchlean-tape":
        vjp = c["vjpMode"] in ("torchlean-tape", "backend-vjp")
    else:
        vjp = c["vjpMode"] == "backend-vjp"
    return (c.get("supportsForward", True) and aligned(c) and trusted and only and
            c["device"] == policy.get("device", "cpu") and vjp)


def choose(policy, op, capsules, mutant):
    eligible = [c for c in capsules if c["op"] == op and admissible(policy, c, mutant)]
    pref = policy.get("provider", "auto")
    if isinstance(pref, dict) and "prefer" in pref and mutant != "skip-preference":
        preferred = [c for c in eligible if c["provider"] == pref["prefer"]]
        if preferred:
            return preferred[0]
    if not eligible:
        raise PlanningError(f"no admissible kernel capsule for op {op} on device "
                            f"{policy.get('device', 'cpu')}")
    return eligible[-1] if mutant == "last-eligible" else eligible[0]


def plan(graph, profile, mutant=None):
    modules = profile["modules"]
    names = [m["name"] for m in modules]
    for name in names:
        if names.count(name) > 1:
            raise PlanningError(f"duplicate backend capsule module `{name}`")
    registry = [c for m in modules for c in m["capsules"]]
    identities = [(c["name"], c["op"], c["provider"], c["device"]) for c in registry]
    for c, identity in zip(registry, identities):
        if identities.count(identity) > 1:
            raise PlanningError(f"duplicate backend capsule identity `{c['name']}`")
    for i, node in enumerate(graph["nodes"]):
        if node["id"] != i:
            raise PlanningError(f"IR graph: id discipline violated at index {i}: "
                                f"nodes[{i}].id = {node['id']}")
        for p in node["parents"]:
            if p >= node["id"]:
                raise PlanningError(f"IR graph: node {i}: parent id {p} is not < {node['id']}")
    availability = profile.get("availability", {})
    devices = availability.get("devices", ["cpu"])
    providers = availability.get("providers", ["reference", "torchlean"])
    if mutant != "ignore-availability":
        registry = [c for c in registry if c["device"] in devices and c["provider"] in providers]
    policy = profile["policy"]
    kernels, capsules = [], {}
    for node in graph["nodes"]:
        op = OP_OF[node["kind"]]
        if op is None:
            if mutant != "plans-input" or not registry:
                continue
            c = registry[0]  # the mutant's kernel for a node without work: any capsule
        else:
            c = choose(policy, op, registry, mutant)
        key = next((k for k, v in capsules.items() if v == c), None)
        if key is None:
            key = f"{c['name']}#{len(capsules)}"
            capsules[key] = c
        kernels.append({"nodeId": node["id"], "kind": plan_kind(node), "op": op or c["op"],
                        "capsule": key})
    return {"format": "nn-backend/graph-execution-plan", "version": 1, "capsules": capsules,
            "kernels": kernels}


def worker(mutant):
    for line in sys.stdin:
        request = json.loads(line)
        answer = {"id": request["id"], "status": "done"}
        try:
            result = plan(json.loads(request["graphText"]), json.loads(request["profileText"]),
                          mutant)
            with open(request["out"], "w", encoding="utf-8") as f:
                json.dump(result, f)
        except PlanningError as e:
            answer = {"id": request["id"], "status": "error", "message": str(e)}
        print(json.dumps(answer), flush=True)
    return 0


def main(argv):
    as_worker = len(argv) > 1 and argv[1] == "--worker"
    rest = argv[2:] if as_worker else argv[4:]
    mutant = rest[0] if rest else None
    if mutant is not None and mutant not in MUTANTS:
        print(f"planner.py: unknown mutant {mutant!r}; expected one of {', '.join(MUTANTS)}",
              file=sys.stderr)
        return 64
    if as_worker:
        return worker(mutant)
    graph_path, profile_path, out_path = argv[1:4]
    with open(graph_path, encoding="utf-8") as f:
        graph = json.load(f)
    with open(profile_path, encoding="utf-8") as f:
        profile = json.load(f)
    try:
        result = plan(graph, profile, mutant)
    except PlanningError as e:
        print(f"planner.py: {e}", file=sys.stderr)
        return 2
    with open(out_path, "w", encoding="utf-8") as f:
        json.dump(result, f)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
