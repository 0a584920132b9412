#!/usr/bin/python3
"""Train the dice pose network of vision (net_pose.go) and export it to ONNX.

The pose network says whether a die lies flat or is cocked (leaning on a
tray's wall, its top face turned away: no roll). Input: crops made by
vision/train/cropexport -pose (PREFIX.u8, PoseSize x PoseSize BGR pixels
each, and PREFIX.csv with a found column and the labels: a face of ? is
a die that shows no roll, any other face a die lying flat). The training
material is frames of the wide distribution's train split with a die
cocked (dicewide -kind frames -cocked -split train), the throws of
vision/testdata/rendered and rendered-hard, and the training clips of the
real photos (flat); nothing of a validation or test set is read here.

Run with Debian's PyTorch (python3-torch 1.13.1, python3-onnx 1.12; see
requirements.txt): /usr/bin/python3 posenet.py --out posenet.onnx DATA...
The same data gives the same model: seeds are fixed, torch runs
deterministic algorithms on one thread.
"""
import argparse
import csv
import sys

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

# the real photos' clips used for training, and the ONNX file's check
from dicenet import REAL_TRAIN_DICE, report_onnx

SIZE = 32
SEED = 3
BATCH = 64
LR = 3e-3
THREADS = 1


def load(prefix, real=False):
    data = np.fromfile(prefix + ".u8", dtype=np.uint8).reshape(-1, SIZE, SIZE, 3)
    with open(prefix + ".csv") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == len(data), (prefix, len(rows), len(data))
    keep = [i for i, r in enumerate(rows)
            if r["found"] == "true" and (not real or r.get("die") in REAL_TRAIN_DICE)]
    cocked = np.array([1 if rows[i]["face"] == "?" else 0 for i in keep], dtype=np.int64)
    return data[keep], cocked


def standardise(c):
    """BGR crops (n, SIZE, SIZE, 3) to the network's input (n, 3, SIZE,
    SIZE), as vision.standardisePose does."""
    x = c.astype(np.float64) / 255
    mean = x.mean(axis=(1, 2, 3), keepdims=True)
    std = np.sqrt(np.maximum((x * x).mean(axis=(1, 2, 3), keepdims=True) - mean * mean, 0))
    std = np.maximum(std, 0.02)
    return ((x - mean) / std).astype(np.float32).transpose(0, 3, 1, 2).copy()


CHANS = [24, 48, 72, 96]


class PoseNet(nn.Module):
    def __init__(self):
        super().__init__()
        chans = [3] + CHANS
        layers = []
        for i, (a, b) in enumerate(zip(chans, chans[1:])):
            layers += [nn.Conv2d(a, b, 3, padding=1), nn.BatchNorm2d(b), nn.ReLU()]
            if i < len(CHANS) - 1:
                layers.append(nn.MaxPool2d(2))
        self.features = nn.Sequential(*layers)
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.head = nn.Linear(chans[-1], 2)
        self.drop = nn.Dropout(0.2)

    def forward(self, x):
        return self.head(self.drop(torch.flatten(self.pool(self.features(x)), 1)))


PERMS = torch.tensor([[0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]])


def recolour(x, p, g):
    """Each crop, with probability p, in other colours: its three
    channels in one of their five other orders (a blue die turned red,
    green or violet, and its table with it), or, one time in three, in
    grey (the channels' mean, standardised again): whether a die is
    cocked does not depend on its colour nor its table's."""
    n = x.shape[0]
    u = torch.rand(n, generator=g)
    which = torch.randint(0, len(PERMS), (n,), generator=g)
    idx = PERMS[which][:, :, None, None].expand(-1, -1, x.shape[2], x.shape[3])
    shuffled = torch.gather(x, 1, idx)
    grey = x.mean(1, keepdim=True)
    m = grey.mean((1, 2, 3), keepdim=True)
    s = grey.std((1, 2, 3), keepdim=True, unbiased=False).clamp(min=0.02)
    grey = ((grey - m) / s).expand(-1, 3, -1, -1)
    out = torch.where((u < p / 3)[:, None, None, None], grey, x)
    return torch.where(((u >= p / 3) & (u < p))[:, None, None, None], shuffled, out)


def augment(x, g, recolour_p=0):
    """The pose does not change when the picture turns a quarter or is
    mirrored; light and colour shift a little; the locator's centre by a
    pixel or two; with recolour_p, the colours change (recolour)."""
    n = x.shape[0]
    if recolour_p > 0:
        x = recolour(x, recolour_p, g)
    k = int(torch.randint(0, 4, (1,), generator=g))
    x = torch.rot90(x, k, (2, 3))
    if int(torch.randint(0, 2, (1,), generator=g)):
        x = torch.flip(x, (3,))
    gain = 1 + 0.15 * (torch.rand(n, 3, 1, 1, generator=g) - 0.5)
    bias = 0.2 * (torch.rand(n, 3, 1, 1, generator=g) - 0.5)
    x = x * gain + bias
    dx, dy = [int(v) for v in torch.randint(-2, 3, (2,), generator=g)]
    x = torch.roll(x, (dy, dx), (2, 3))
    return x


def set_size_seed(size, seed):
    global SIZE, SEED
    SIZE, SEED = size, seed


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--epochs", type=int, default=60)
    ap.add_argument("--real", help="prefix of the real photos' crops (training clips only are used)")
    ap.add_argument("--eval", nargs="*", default=[], help="prefixes of cropexport -pose output to measure the trained network on (not trained on): cocked dice refused and flat dice refused, per threshold")
    ap.add_argument("data", nargs="+", help="prefixes of cropexport -pose output")
    ap.add_argument("--size", type=int, default=SIZE, help="the crops' side in pixels, as cut by cropexport -pose -pose-size (32: the committed network's)")
    ap.add_argument("--recolour", type=float, default=0, help="the share of the crops each batch shows in other colours, channels reordered or grey (0: none, the committed network's)")
    ap.add_argument("--seed", type=int, default=SEED, help="the seed of the weights, the batches and the augmentation (3: the committed network's)")
    a = ap.parse_args()
    if not 8 <= a.size <= 160:
        sys.exit(f"posenet: --size {a.size}: give 8 to 160 pixels, the size cropexport -pose-size cut the crops at")
    if not 0 <= a.recolour <= 1:
        sys.exit(f"posenet: --recolour {a.recolour}: give a share of the crops from 0 (none) to 1 (every crop)")
    set_size_seed(a.size, a.seed)
    torch.manual_seed(SEED)
    np.random.seed(SEED)
    torch.set_num_threads(THREADS)
    torch.use_deterministic_algorithms(True)
    xs, ys = [], []
    for p in a.data:
        x, y = load(p)
        print(f"{p}: {len(y)} dice, {int(y.sum())} cocked", flush=True)
        xs.append(x)
        ys.append(y)
    if a.real:
        x, y = load(a.real, real=True)
        print(f"{a.real}: {len(y)} dice, {int(y.sum())} cocked", flush=True)
        xs.append(x)
        ys.append(y)
    x = torch.from_numpy(standardise(np.concatenate(xs)))
    y = torch.from_numpy(np.concatenate(ys))
    pos = int(y.sum())
    if pos == 0 or pos == len(y):
        sys.exit("posenet: the data needs both cocked and flat dice")
    # the two classes weigh the same
    w = torch.tensor([len(y) / (2 * (len(y) - pos)), len(y) / (2 * pos)], dtype=torch.float32)
    net = PoseNet()
    opt = torch.optim.AdamW(net.parameters(), lr=LR, weight_decay=1e-4)
    steps = a.epochs * ((len(y) + BATCH - 1) // BATCH)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=LR, total_steps=steps)
    g = torch.Generator().manual_seed(SEED)
    for ep in range(a.epochs):
        net.train()
        perm = torch.randperm(len(y), generator=g)
        tot, right = 0.0, 0
        for i in range(0, len(y), BATCH):
            idx = perm[i:i + BATCH]
            xb, yb = augment(x[idx], g, a.recolour), y[idx]
            out = net(xb)
            loss = F.cross_entropy(out, yb, weight=w)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            tot += float(loss) * len(idx)
            right += int((out.argmax(1) == yb).sum())
        print(f"epoch {ep + 1}: loss {tot / len(y):.4f}, train {100 * right / len(y):.1f}% right", flush=True)
    net.eval()
    for p in a.eval:
        ex, ey = load(p)
        with torch.no_grad():
            ex = torch.from_numpy(standardise(ex))
            prob = torch.softmax(net(ex), 1)[:, 1].numpy()
            views = [prob]  # the crop itself, then its seven other views
            for flip in (False, True):
                v = torch.flip(ex, (3,)) if flip else ex
                for k in range(0 if flip else 1, 4):
                    views.append(torch.softmax(net(torch.rot90(v, k, (2, 3))), 1)[:, 1].numpy())
            mean8 = np.mean(views, axis=0)
        # as the reader refuses (vision.NetOpts: MaxCocked 0.6, a second
        # look at the eight views from 0.1)
        ref = (prob >= 0.6) | ((prob >= 0.1) & (mean8 >= 0.6))
        print(f"eval {p}: as the reader: cocked {int(ref[ey == 1].sum())}/{int((ey == 1).sum())} refused, flat {int(ref[ey == 0].sum())}/{int((ey == 0).sum())} refused", flush=True)
        cells = []
        for th in (0.3, 0.5, 0.7, 0.9):
            c = prob[ey == 1] >= th
            f = prob[ey == 0] >= th
            cells.append(f"{th}: cocked {int(c.sum())}/{len(c)} flat {int(f.sum())}/{len(f)}")
        print(f"eval {p}: " + "; ".join(cells), flush=True)

    torch.onnx.export(net, torch.zeros(1, 3, SIZE, SIZE), a.out, opset_version=11,
                      input_names=["input"], output_names=["logits"],
                      dynamic_axes={"input": {0: "n"}, "logits": {0: "n"}},
                      do_constant_folding=True)
    report_onnx(a.out)


if __name__ == "__main__":
    main()
