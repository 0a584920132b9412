#!/usr/bin/python3
"""Train the dice numeral classifier of vision.NetReader and export it to ONNX.

Input: crops made by vision/train/cropexport (PREFIX.u8, 48x48 grey levels
each, and PREFIX.csv with a found column and the labels). The training
material is the wide distribution's train split (fonts and surfaces of
vision/render/wide.yaml's train lists) and the training clips of the real
photos (see REAL_TRAIN_DICE); nothing of the test split is read here.

Run with Debian's PyTorch (python3-torch 1.13.1, python3-onnx 1.12; see
requirements.txt): /usr/bin/python3 dicenet.py --out model.onnx DATA...
The same data gives the same model: seeds are fixed, torch runs
deterministic algorithms on a fixed number of threads.
"""
import argparse
import csv
import hashlib
import sys

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

CROP = 32
SEED = 15
BATCH = 64
LR = 4e-3
THREADS = 1
# The real photos' clips used for training; the others (lavender pearl
# with white numerals, black with red) are held out for the tests.
REAL_TRAIN_DICE = {"navy with gold numerals", "translucent blue with gold numerals", "blue speckled with white numerals"}


def load(prefix, real=False):
    data = np.fromfile(prefix + ".u8", dtype=np.uint8).reshape(-1, CROP, CROP)
    with open(prefix + ".csv") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == len(data), (prefix, len(rows), len(data))
    keep = []
    for i, r in enumerate(rows):
        if r["found"] != "true":
            continue
        if real and r.get("die") not in REAL_TRAIN_DICE:
            continue
        keep.append(i)
    # a die labelled ? (cocked against a wall: no roll) is -1, a crop the
    # network learns to be unsure of (--unsure-weight)
    faces = np.array([-1 if rows[i]["face"] == "?" else int(rows[i]["face"]) - 1 for i in keep], dtype=np.int64)
    return data[keep], faces


def standardise(g):
    """Grey levels to the network's input, as vision.standardise does."""
    x = g.astype(np.float64) / 255
    mean = x.mean(axis=(1, 2), keepdims=True)
    std = np.sqrt(np.maximum((x * x).mean(axis=(1, 2), keepdims=True) - mean * mean, 0))
    std = np.maximum(std, 0.02)
    return ((x - mean) / std).astype(np.float32)


CHANS = [20, 40, 64, 96]


class DiceNet(nn.Module):
    def __init__(self):
        super().__init__()
        chans = [1] + CHANS
        layers = []
        for a, b in zip(chans, chans[1:]):
            layers += [nn.Conv2d(a, b, 3, padding=1), nn.BatchNorm2d(b), nn.ReLU(), nn.MaxPool2d(2)]
        self.features = nn.Sequential(*layers)
        self.embed = nn.Linear(chans[-1] * 2 * 2, 64)
        self.head = nn.Linear(64, 8)
        self.drop = nn.Dropout(0.2)

    def forward(self, x):
        h = torch.flatten(self.features(x), 1)
        e = F.relu(self.embed(h))
        return self.head(self.drop(e)), e


def standardise_t(x):
    """standardise for a batch of tensors (N, 1, H, W) in 0..1."""
    mean = x.mean(dim=(1, 2, 3), keepdim=True)
    std = ((x * x).mean(dim=(1, 2, 3), keepdim=True) - mean * mean).clamp(min=0).sqrt().clamp(min=0.02)
    return (x - mean) / std


TURNS = "half"
# the share of crops blurred heavily (--heavy-blur; 0: none, and the
# random draws are those of the models made before it)
HEAVY_BLUR = 0.0
# the real photos' training clips weigh this share of the crops (--real-weight)
REAL_WEIGHT = 0.1


def augment(x, gen):
    """x: grey levels in 0..1. Random turns (any half turn, +-12 degrees),
    shifts and scales; then what a camera and a light change: blur, the
    ink's polarity (white ink on a dark die or black ink on a pale one),
    gamma, a shadow across, noise. Returns standardised
    crops."""
    n = x.shape[0]

    def r(*shape):
        return torch.rand(*shape, generator=gen)

    ang = (r(n) * 2 - 1) * (12 * np.pi / 180)
    if TURNS == "half":
        ang = ang + np.pi * (r(n) < 0.5).float()
    elif TURNS == "quarter":
        ang = ang + (np.pi / 2) * torch.floor(r(n) * 4)
    else:
        ang = r(n) * 2 * np.pi
    sc = 1 + (r(n) * 2 - 1) * 0.12
    tx = (r(n) * 2 - 1) * 0.08
    ty = (r(n) * 2 - 1) * 0.08
    cos, sin = torch.cos(ang) * sc, torch.sin(ang) * sc
    theta = torch.stack([torch.stack([cos, -sin, tx], 1), torch.stack([sin, cos, ty], 1)], 1)
    grid = F.affine_grid(theta, x.shape, align_corners=False)
    y = F.grid_sample(x, grid, padding_mode="border", align_corners=False)
    # blur: a 3x3 Gaussian of random width, on a quarter
    s2 = (r(n) * 1.2 + 0.3) ** 2
    k1 = torch.stack([torch.exp(-torch.tensor([1.0, 0.0, 1.0])[None] / (2 * s2[:, None]))], 0)[0]
    k1 = k1 / k1.sum(1, keepdim=True)
    k2 = k1[:, :, None] * k1[:, None, :]
    blurred = F.conv2d(F.pad(y, (1, 1, 1, 1), mode="replicate").transpose(0, 1), k2[:, None], groups=n).transpose(0, 1)
    y = torch.where((r(n) < 0.25)[:, None, None, None], blurred, y)
    if HEAVY_BLUR > 0:
        # a heavy blur (motion, focus), a 7x7 Gaussian of width 1 to 2.5
        # pixels, on a share of them: a blurred 5 looks like a 6
        s2 = (r(n) * 1.5 + 1.0) ** 2
        k1 = torch.exp(-torch.tensor([9.0, 4.0, 1.0, 0.0, 1.0, 4.0, 9.0])[None] / (2 * s2[:, None]))
        k1 = k1 / k1.sum(1, keepdim=True)
        k2 = k1[:, :, None] * k1[:, None, :]
        heavy = F.conv2d(F.pad(y, (3, 3, 3, 3), mode="replicate").transpose(0, 1), k2[:, None], groups=n).transpose(0, 1)
        y = torch.where((r(n) < HEAVY_BLUR)[:, None, None, None], heavy, y)
    # polarity
    y = torch.where((r(n) < 0.2)[:, None, None, None], 1 - y, y)
    # gamma
    y = y.clamp(1e-3, 1) ** torch.exp((r(n, 1, 1, 1) * 2 - 1) * 0.4)
    # a straight shadow edge across a tenth of them
    h = x.shape[2]
    yy, xx = torch.meshgrid(torch.arange(h).float() / h - 0.5, torch.arange(h).float() / h - 0.5, indexing="ij")
    a = r(n) * 2 * np.pi
    off = (r(n) * 2 - 1) * 0.5
    edge = (xx[None] * torch.cos(a)[:, None, None] + yy[None] * torch.sin(a)[:, None, None] > off[:, None, None]).float()
    dark = 1 - edge[:, None] * (0.3 + 0.4 * r(n, 1, 1, 1)) * (r(n, 1, 1, 1) < 0.1).float()
    y = y * dark
    # noise, up to a fifth of the crop's own contrast
    sd = y.std(dim=(1, 2, 3), keepdim=True)
    y = y + torch.randn(y.shape, generator=gen) * sd * (r(n, 1, 1, 1) * 0.2)
    return standardise_t(y)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--epochs", type=int, default=30)
    ap.add_argument("--real", action="append", default=[], help="crop prefix of real photos (training clips are kept)")
    ap.add_argument("--turns", default="half", choices=["half", "quarter", "any"], help="turns the augmentation draws")
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--chans", default="20,40,64,96", help="the four convolutions' channels")
    ap.add_argument("--heavy-blur", type=float, default=0.0, help="the share of crops blurred heavily (see HEAVY_BLUR)")
    ap.add_argument("--real-weight", type=float, default=0.1, help="the real training clips' share of the crops")
    ap.add_argument("--unsure-weight", type=float, default=0.0, help="how much the crops of dice labelled ? (cocked: cropexport -unsure) weigh; the network learns to find every face as likely on them (0: they are left out)")
    ap.add_argument("data", nargs="+", help="crop prefixes of the wide train split")
    a = ap.parse_args()
    global TURNS, CHANS, HEAVY_BLUR, REAL_WEIGHT
    TURNS = a.turns
    HEAVY_BLUR = a.heavy_blur
    REAL_WEIGHT = a.real_weight
    CHANS = [int(c) for c in a.chans.split(",")]
    seed = a.seed

    torch.manual_seed(seed)
    np.random.seed(seed)
    torch.set_num_threads(THREADS)
    torch.use_deterministic_algorithms(True)
    gen = torch.Generator().manual_seed(seed)

    xs, ys, vx, vy = [], [], [], []
    for p in a.data:
        x, y = load(p)
        if a.unsure_weight <= 0:
            x, y = x[y >= 0], y[y >= 0]
        # every tenth crop is kept out, to choose the reader's threshold
        val = np.arange(len(x)) % 10 == 9
        xs.append(x[~val])
        ys.append(y[~val])
        vx.append(x[val])
        vy.append(y[val])
        print(f"{p}: {len(x)} crops ({val.sum()} for validation)", flush=True)
    for p in a.real:
        x, y = load(p, real=True)
        # the real clips are few: repeat them to weigh REAL_WEIGHT (a tenth)
        rep = max(1, int(REAL_WEIGHT * sum(len(v) for v in xs) / max(len(x), 1)))
        xs.append(np.repeat(x, rep, axis=0))
        ys.append(np.repeat(y, rep, axis=0))
        print(f"{p}: {len(x)} real training crops, repeated {rep} times", flush=True)
    x = torch.from_numpy(np.concatenate(xs).astype(np.float32) / 255)[:, None]
    y = torch.from_numpy(np.concatenate(ys))
    # crops of dice to refuse among them (--unsure-weight)
    unsure = int((y < 0).sum())
    print(f"training on {len(x)} crops, faces {np.bincount(y[y >= 0].numpy(), minlength=8).tolist()}, {unsure} to be unsure of", flush=True)

    net = DiceNet()
    opt = torch.optim.AdamW(net.parameters(), lr=LR, weight_decay=1e-4)
    steps = a.epochs * ((len(x) + BATCH - 1) // BATCH)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=LR, total_steps=steps)
    for ep in range(a.epochs):
        net.train()
        perm = torch.randperm(len(x), generator=gen)
        tot, seen, right, loss_sum = 0, 0, 0, 0.0
        for i in range(0, len(x), BATCH):
            idx = perm[i:i + BATCH]
            xb = augment(x[idx], gen)
            yb = y[idx]
            logits, _ = net(xb)
            if unsure:
                # the faces' cross-entropy, and for a die to refuse the
                # cross-entropy to every face equally likely
                lab = yb >= 0
                ce = F.cross_entropy(logits[lab], yb[lab], reduction="sum")
                flat = -F.log_softmax(logits[~lab], 1).mean(1).sum()
                loss = (ce + a.unsure_weight * flat) / len(idx)
            else:
                loss = F.cross_entropy(logits, yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            loss_sum += loss.item() * len(idx)
            # (a die to refuse, -1, is never the likeliest face)
            right += (logits.argmax(1) == yb).sum().item()
            tot += int((yb >= 0).sum())
            seen += len(idx)
        print(f"epoch {ep + 1}/{a.epochs}: loss {loss_sum / seen:.4f}, train accuracy {right / tot:.4f}", flush=True)

    net.eval()
    with torch.no_grad():
        vx, vy = np.concatenate(vx), np.concatenate(vy)
        logits, _ = net(torch.from_numpy(standardise(vx[vy >= 0]))[:, None])
        prob = torch.softmax(logits, 1)
        p, face = prob.max(1)
        truth = torch.from_numpy(vy[vy >= 0])
        n = len(truth)
        print(f"validation ({n} crops of the train split, not trained on):")
        for th in (0.5, 0.8, 0.9, 0.95, 0.97, 0.98, 0.99, 0.995):
            read = p >= th
            right = (read & (face == truth)).sum().item()
            wrong = (read & (face != truth)).sum().item()
            print(f"  threshold {th}: right {100 * right / n:.2f}%, refused {100 * (n - right - wrong) / n:.2f}%, wrong {100 * wrong / n:.2f}%")

    class Export(nn.Module):
        def __init__(self, n):
            super().__init__()
            self.n = n

        def forward(self, inp):
            h = torch.flatten(self.n.features(inp), 1)
            e = F.relu(self.n.embed(h))
            return self.n.head(e), e

    torch.onnx.export(Export(net), torch.zeros(1, 1, CROP, CROP), a.out, opset_version=11,
                      input_names=["input"], output_names=["logits", "embed"],
                      dynamic_axes={"input": {0: "n"}, "logits": {0: "n"}, "embed": {0: "n"}},
                      do_constant_folding=True)
    report_onnx(a.out)


def report_onnx(path):
    """Check the ONNX file written at path and print its operators and
    SHA-256 (what make model must reproduce)."""
    import onnx
    m = onnx.load(path)
    onnx.checker.check_model(m)
    ops = sorted({n.op_type for n in m.graph.node})
    with open(path, "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()
    print(f"wrote {path}: ops {ops}, sha256 {digest}", flush=True)


if __name__ == "__main__":
    sys.exit(main())
