#!/usr/bin/python3
"""Capture a PyTorch nn.Module into upstream's torchlean.ir.v1 graph (docs/spec.md §10.6) with
torch.fx: symbolic_trace, then ShapeProp for each node's shape. A small exporter of our own: it
knows the modules and functions below and refuses any other with the node's name.

    /usr/bin/python3 tools/export-fx/torchlean_fx.py OUT_DIR

writes mlp.json, cnn.json and transformer-block.json (the models below) into OUT_DIR. Needs
Debian's python3-torch (README, "Real graphs").
"""
import json
import operator
import os
import sys

import torch
import torch.fx
import torch.nn as nn
import torch.nn.functional as F
from torch.fx.passes.shape_prop import ShapeProp


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1, self.fc2, self.fc3 = nn.Linear(8, 16), nn.Linear(16, 16), nn.Linear(16, 4)

    def forward(self, x):
        return self.fc3(torch.relu(self.fc2(torch.relu(self.fc1(x)))))


class CNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1, self.conv2 = nn.Conv2d(1, 4, 3, padding=1), nn.Conv2d(4, 8, 3, padding=1)
        self.pool = nn.MaxPool2d(2)
        self.fc = nn.Linear(8 * 3 * 3, 10)

    def forward(self, x):
        x = self.pool(F.relu(self.conv1(x)))
        x = self.pool(F.relu(self.conv2(x)))
        return self.fc(torch.flatten(x, 1))


class TransformerBlock(nn.Module):
    def __init__(self, d=16, hidden=32):
        super().__init__()
        self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.q, self.k, self.v, self.o = (nn.Linear(d, d) for _ in range(4))
        self.up, self.down = nn.Linear(d, hidden), nn.Linear(hidden, d)

    def forward(self, x):
        h = self.ln1(x)
        scores = torch.matmul(self.q(h), self.k(h).transpose(1, 2))
        attn = torch.matmul(torch.softmax(scores, dim=-1), self.v(h))
        x = x + self.o(attn)
        return x + self.down(torch.relu(self.up(self.ln2(x))))


MODELS = {"mlp": (MLP, (1, 8)), "cnn": (CNN, (1, 1, 14, 14)),
          "transformer-block": (TransformerBlock, (1, 4, 16))}


def shape_of(node):
    meta = node.meta.get("tensor_meta")
    if meta is None:
        raise SystemExit("torchlean_fx: node %s has no tensor shape" % node.name)
    return [int(d) for d in meta.shape]


def axis(dim, rank):
    return dim + rank if dim < 0 else dim


def export(module, example):
    module.eval()
    gm = torch.fx.symbolic_trace(module)
    ShapeProp(gm).propagate(torch.randn(*example))
    nodes, ids, outputs = [], {}, []

    def emit(fx, kind, parents, shape, **fields):
        ids[fx] = len(nodes)
        nodes.append(dict(id=len(nodes), kind=kind, parents=[ids[p] for p in parents],
                          shape=shape, **fields))

    for n in gm.graph.nodes:
        if n.op == "placeholder":
            emit(n, "input", [], shape_of(n))
            continue
        if n.op == "output":
            out = n.args[0]
            outputs = [ids[a] for a in (out if isinstance(out, (tuple, list)) else (out,))]
            continue
        args = [a for a in n.args if isinstance(a, torch.fx.Node)]
        shape = shape_of(n)
        if n.op == "call_module":
            m = gm.get_submodule(n.target)
            if isinstance(m, nn.Linear):
                emit(n, "linear", args, shape)
            elif isinstance(m, nn.Conv2d):
                emit(n, "conv", args, shape, spatial_rank=2, kernel=list(m.kernel_size),
                     stride=list(m.stride), padding=list(m.padding), dilation=list(m.dilation),
                     padding_after=list(m.padding), groups=m.groups, channel_axis=1,
                     in_channels=m.in_channels, out_channels=m.out_channels)
            elif isinstance(m, (nn.MaxPool2d, nn.AvgPool2d)):
                k = m.kernel_size if isinstance(m.kernel_size, tuple) else (m.kernel_size,) * 2
                s = m.stride if isinstance(m.stride, tuple) else (m.stride,) * 2
                p = m.padding if isinstance(m.padding, tuple) else (m.padding,) * 2
                emit(n, "max_pool" if isinstance(m, nn.MaxPool2d) else "avg_pool", args, shape,
                     spatial_rank=2, kernel=list(k), stride=list(s), padding=list(p))
            elif isinstance(m, nn.LayerNorm):
                emit(n, "layernorm", args, shape, axis=len(shape) - len(m.normalized_shape))
            elif isinstance(m, nn.ReLU):
                emit(n, "relu", args, shape)
            else:
                raise SystemExit("torchlean_fx: module %s (%s) is not exported" %
                                 (n.target, type(m).__name__))
        elif n.op == "call_function" or n.op == "call_method":
            t = n.target
            if t in (torch.relu, F.relu, "relu"):
                emit(n, "relu", args, shape)
            elif t in (operator.add, torch.add, "add"):
                emit(n, "add", args, shape)
            elif t in (torch.matmul, operator.matmul, "matmul"):
                emit(n, "matmul", args, shape)
            elif t in (torch.softmax, F.softmax, "softmax"):
                dim = n.kwargs.get("dim", n.args[1] if len(n.args) > 1 else -1)
                emit(n, "softmax", args, shape, axis=axis(dim, len(shape)))
            elif t == "transpose":
                rank = len(shape)
                emit(n, "transpose", args, shape, axis1=axis(n.args[1], rank),
                     axis2=axis(n.args[2], rank))
            elif t in (torch.flatten, "flatten"):
                emit(n, "flatten", args, shape, value_shape=shape_of(args[0]))
            else:
                raise SystemExit("torchlean_fx: function %s is not exported" % n.name)
        else:
            raise SystemExit("torchlean_fx: node %s (%s) is not exported" % (n.name, n.op))
    return {"format": "torchlean.ir.v1", "input_id": 0, "output_ids": outputs, "nodes": nodes}


def main():
    if len(sys.argv) != 2:
        raise SystemExit("usage: torchlean_fx.py OUT_DIR")
    torch.manual_seed(0)
    os.makedirs(sys.argv[1], exist_ok=True)
    for name, (cls, example) in MODELS.items():
        graph = export(cls(), example)
        with open(os.path.join(sys.argv[1], name + ".json"), "w") as f:
            f.write("{\n  \"format\": \"torchlean.ir.v1\",\n  \"input_id\": 0,\n")
            f.write("  \"output_ids\": %s,\n  \"nodes\": [\n" % json.dumps(graph["output_ids"]))
            f.write(",\n".join("    " + json.dumps(n) for n in graph["nodes"]))
            f.write("\n  ]\n}\n")


if __name__ == "__main__":
    main()
