"""What to read next: how well the For-you order and "more like this" find a reader's interest, and how fast.

    python bench/ranking.py [--seeds 0,1,2,3,4] [--sizes 2260,10000,100000] [--skip-speed] [--skip-quality]
                            [--skip-across]

Quality runs on ../shared/corpora/iclr-2024-papers.jsonl with OpenReview's `primary_area` as a
stand-in for a reader's interest: for each area and seed, a simulated reader goes through 50,
100 and 200 random papers, stars those of the area and marks the rest read; the orders are
scored (precision@20, average precision) over the papers not yet seen. Beside ours, in the same
run: file order, tf-idf + linear SVM (arxiv-sanity-lite's recipe) and tf-idf + logistic
regression (the Subscription Viewer's recipe), trained on the same marks. Runs where the reader
starred fewer than `MIN_POSITIVES` papers are left out for every method (the model says "star a
paper" there) and counted. The buckets: for each, its share of the papers not yet seen and the
share of those in the reader's interest (held-out precision: "likely star" should mostly be
right). From the first star: keyword-defined topics (`TOPICS`), k = 1-4 stars among 120 papers
seen, ours against tf-idf + SVM on the same marks. "More like this": share of a paper's 10 most similar papers
that share its primary area, over every paper. Across lists (the library, issue 32): 12 stars on one area in one
list and nothing marked in the other, the other's For-you top 20 (ICLR → ICML and back), beside 12 stars in the
list itself; ICML has no areas, so each ICML paper's area is the one a tf-idf + logistic regression trained on
every ICLR paper's area gives it (a judge apart from the model judged). Speed runs on synthetic lists from
../shared/tools/make_corpus.py. The parameters in store/interest/ranking.py were tuned with seeds
100-104; the default seeds here are others.
"""
from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import numpy as np

from store.readers import read_path
from store.papers.model import Triage
from store.interest.ranking import MIN_POSITIVES, WEAK, Bucket, Features, InterestModel, _fit  # _fit: the retrain alone
from store.interest.counts import counted
from views import median_ms  # bench/views.py, beside this script

SHARED = Path(__file__).resolve().parents[2] / "shared"
MAKE_CORPUS = SHARED / "tools" / "make_corpus.py"
ICLR = SHARED / "corpora" / "iclr-2024-papers.jsonl"
ICML = SHARED / "corpora" / "icml-2024-papers.jsonl"
STARS = 12
SEEN = (50, 100, 200)
AREAS = 8
"""The largest areas but "general machine learning (none of the above)", which is no interest."""


def anchors(texts: list[str]):
    """The two anchors' scorers: (pos rows, neg rows) → a score per paper."""
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.linear_model import LogisticRegression
    from sklearn.svm import LinearSVC

    x = TfidfVectorizer(sublinear_tf=True, ngram_range=(1, 2), min_df=2, strip_accents="unicode",
                        stop_words="english").fit_transform(texts)

    def fitted(model):
        def score(pos: np.ndarray, neg: np.ndarray) -> np.ndarray:
            rows = np.concatenate([pos, neg])
            target = np.concatenate([np.ones(len(pos)), np.zeros(len(neg))])
            return model().fit(x[rows], target).decision_function(x)
        return score

    return x, {
        "tf-idf + SVM": fitted(lambda: LinearSVC(C=0.1, class_weight="balanced", random_state=0)),
        "tf-idf + LR": fitted(lambda: LogisticRegression(C=1, class_weight="balanced", max_iter=1000)),
    }


def average_precision(relevant: np.ndarray) -> float:
    """AP of a ranked list given whether each place is relevant."""
    hits = np.cumsum(relevant)
    return float((hits / np.arange(1, len(relevant) + 1))[relevant].sum() / max(1, relevant.sum()))


def quality(seeds: list[int]) -> None:
    collection = read_path(ICLR)
    papers = collection.papers
    area = np.array([p.area for p in papers])
    areas = [a for a, _ in Counter(area).most_common() if not a.startswith("general")][:AREAS]
    start = time.perf_counter()
    features = Features(papers)
    print(f"features of {len(papers)} papers: {time.perf_counter() - start:.1f} s; "
          f"{features.x.shape[1]} terms, {features.z.shape[1]} latent dimensions\n")
    model = InterestModel(features)
    anchor_x, anchor = anchors([f"{p.title} {p.plain}" for p in papers])

    def ours(pos: np.ndarray, neg: np.ndarray) -> tuple[np.ndarray, object]:
        states = {papers[i].id: Triage(starred=True) for i in pos} | {papers[i].id: Triage(read=True) for i in neg}
        ranking = model.rank(states)
        return ranking.scores, ranking

    methods = ["file order", *anchor, "ours (For you)"]
    table: dict[tuple[str, str, int], list[tuple[float, float]]] = {}
    too_few: Counter = Counter()
    buckets: dict[Bucket, list[int]] = {b: [0, 0] for b in Bucket}
    learning: dict[str, list[float]] = {"random": [], "Suggested": []}
    for a in areas:
        wanted = area == a
        for seed in seeds:
            order = np.random.default_rng(seed).permutation(len(papers))
            for n in SEEN:
                seen, rest = order[:n], order[n:]
                pos, neg = seen[wanted[seen]], seen[~wanted[seen]]
                if len(pos) < MIN_POSITIVES:
                    too_few[n] += 1
                    continue
                scores = {"file order": -np.arange(len(papers), dtype=float)}
                scores |= {name: score(pos, neg) for name, score in anchor.items()}
                scores["ours (For you)"], ranking = ours(pos, neg)
                for name, s in scores.items():
                    ranked = wanted[rest[np.lexsort((rest, -s[rest]))]]
                    table.setdefault((a, name, n), []).append((ranked[:20].mean(), average_precision(ranked)))
                tally(buckets, ranking, papers, rest, wanted)
                if n == SEEN[0]:
                    learning_step(model, papers, wanted, order, pos, neg, ranking, learning)
    for k, label in ((0, "precision@20"), (1, "average precision")):
        print(f"For you: {label} over the papers not yet seen (mean over seeds {seeds})")
        print(f"{'area':42s} {'seen':>4s} " + " ".join(f"{m:>15s}" for m in methods))
        means = {(m, n): [] for m in methods for n in SEEN}
        for a in areas:
            for n in SEEN:
                if (a, methods[0], n) not in table:
                    continue
                row = [statistics.mean(v[k] for v in table[(a, m, n)]) for m in methods]
                for m, value in zip(methods, row):
                    means[(m, n)].append(value)
                print(f"{a[:42]:42s} {n:4d} " + " ".join(f"{v:15.3f}" for v in row))
        for n in SEEN:
            print(f"{'MEAN over areas':42s} {n:4d} " + " ".join(f"{statistics.mean(means[(m, n)]):15.3f}" for m in methods))
        print(f"{'MEAN over all':42s} {'':4s} " + " ".join(
            f"{statistics.mean(v for n in SEEN for v in means[(m, n)]):15.3f}" for m in methods) + "\n")
    print("runs left out (fewer than %d starred): " % MIN_POSITIVES + ", ".join(f"{too_few[n]} at {n} seen" for n in SEEN))
    print_buckets(buckets, "areas, all runs")
    print("\nActive learning: AP after 50 random marks and 50 more, taken at random or from Suggested "
          "(10 at a time), over papers neither saw")
    for name, values in learning.items():
        print(f"  {name:10s} {statistics.mean(values):.3f}  ({len(values)} runs)")
    buckets = {b: [0, 0] for b in Bucket}
    few_stars(papers, model, anchor, seeds, buckets)
    print_buckets(buckets, "from the first star, all runs")
    similar_quality(features, anchor_x, area)


TOPICS = ("federated", "graph neural", "contrastive", "time series", "causal", "adversarial", "in-context",
          "interpretab", "pruning", "continual", "diffusion model", "reinforcement learning")
"""Keyword-defined topics: a paper is in one when one of its OpenReview keywords holds the words
(`federated` takes "federated learning", "personalized federated learning", …): 27 to 257 papers."""
FEW = (1, 2, 3, 4)
FEW_SEEN = 120


def few_stars(papers, model, anchor, seeds: list[int], buckets) -> None:
    """Where a reader starts: k stars among the first 120 papers seen (k of the topic's papers and
    120 - k others, marked read), each order scored over the papers not seen."""
    print(f"\nFrom the first star: precision@20 over the papers not yet seen, k stars of a keyword topic among "
          f"{FEW_SEEN} papers seen (the rest marked read); mean over seeds {seeds}")
    methods = ["file order", "tf-idf + SVM", "ours (For you)"]
    print(f"{'topic (papers)':28s} " + " ".join(f"{'k=%d %s' % (k, m[:4] if m != methods[1] else 'SVM'):>9s}" for k in FEW for m in methods[1:]))
    means: dict[tuple[str, int], list[float]] = {}
    for topic in TOPICS:
        wanted = np.array([any(topic in k.lower() for k in p.keywords) for p in papers])
        inside, outside = np.flatnonzero(wanted), np.flatnonzero(~wanted)
        row = []
        for k in FEW:
            runs: dict[str, list[float]] = {m: [] for m in methods}
            for seed in seeds:
                rng = np.random.default_rng(seed)
                pos, neg = rng.choice(inside, k, replace=False), rng.choice(outside, FEW_SEEN - k, replace=False)
                rest = np.setdiff1d(np.arange(len(papers)), np.concatenate([pos, neg]))
                states = {papers[i].id: Triage(starred=True) for i in pos} | {papers[i].id: Triage(read=True) for i in neg}
                ranking = model.rank(states)
                scores = {"file order": -np.arange(len(papers), dtype=float), "tf-idf + SVM": anchor["tf-idf + SVM"](pos, neg),
                          "ours (For you)": ranking.scores}
                tally(buckets, ranking, papers, rest, wanted)
                for name, s in scores.items():
                    runs[name].append(wanted[rest[np.lexsort((rest, -s[rest]))]][:20].mean())
            for m in methods:
                means.setdefault((m, k), []).append(statistics.mean(runs[m]))
            row += [statistics.mean(runs[m]) for m in methods[1:]]
        print(f"{topic[:22] + ' (%d)' % wanted.sum():28s} " + " ".join(f"{v:9.3f}" for v in row))
    print(f"{'MEAN over topics':28s} " + " ".join(f"{statistics.mean(means[(m, k)]):9.3f}" for k in FEW for m in methods[1:]))
    print(f"(file order: {statistics.mean(v for k in FEW for v in means[('file order', k)]):.3f})")


def tally(buckets, ranking, papers, rest, wanted) -> None:
    """Count the papers not yet seen (`rest`) into their buckets, and those of the interest."""
    for i in rest:
        counts = buckets[ranking.bucket(papers[i].id)]
        counts[0] += 1
        counts[1] += wanted[i]


def print_buckets(buckets, runs: str) -> None:
    total = max(1, sum(c for c, _ in buckets.values()))
    print(f"\nBuckets over the papers not yet seen ({runs}): share of the papers, share of them in the interest")
    for b, (count, hits) in buckets.items():
        print(f"  {b.glyph} {b.label:12s} {count:7d} papers ({100 * count / total:4.1f}%), {hits / max(1, count):.3f} in the interest")
    print(f"  (base rate {sum(h for _, h in buckets.values()) / total:.3f})")


def learning_step(model, papers, wanted, order, pos, neg, ranking, learning) -> None:
    """One active-learning comparison from the reader's first 50 marks: 50 more marks taken at
    random (the next papers in the reader's order) or 10 at a time from the Suggested order."""
    ids = [p.id for p in papers]
    row = {pid: i for i, pid in enumerate(ids)}
    marked = {ids[i]: Triage(starred=True) for i in pos} | {ids[i]: Triage(read=True) for i in neg}
    randomly = dict(marked)
    for i in order[50:100]:
        randomly[ids[i]] = Triage(starred=True) if wanted[i] else Triage(read=True)
    suggested = dict(marked)
    for _ in range(5):
        for pid in ranking.suggested[:10]:
            suggested[pid] = Triage(starred=True) if wanted[row[pid]] else Triage(read=True)
        ranking = model.rank(suggested)
    rest = np.array([i for i in range(len(ids)) if ids[i] not in randomly and ids[i] not in suggested])
    for name, states in (("random", randomly), ("Suggested", suggested)):
        s = model.rank(states).scores
        learning[name].append(average_precision(wanted[rest[np.lexsort((rest, -s[rest]))]]))


def similar_quality(features: Features, anchor_x, area: np.ndarray) -> None:
    print("\nMore like this: share of the 10 most similar papers in the paper's primary area (every paper)")
    ours, cosine = [], []
    for i, pid in enumerate(features.ids):
        top = [features.row(j) for j in features.similar(pid, 10)]
        ours.append((area[top] == area[i]).mean())
        s = (anchor_x @ anchor_x[i].T).toarray().ravel()
        s[i] = -np.inf
        cosine.append((area[np.argsort(-s, kind="stable")[:10]] == area[i]).mean())
    print(f"  tf-idf cosine (1-2 grams) {statistics.mean(cosine):.3f}\n  ours (similar)            {statistics.mean(ours):.3f}")


def speed(sizes: list[int]) -> None:
    print("\nSpeed. Once per collection, in seconds: the papers' words counted (store.interest.counts)")
    print("and the features built (counting them again; a long list's are then cached). Per mark, median milliseconds of 7: rank() = retrain + rerank")
    print("with 200 papers marked (20 starred) and with 2,000 (200), of which the SVM fit; why() and")
    print("similar(k=10) for one paper.")
    print(f"{'papers':>8s} {'counts s':>8s} {'features s':>10s} {'rank 200':>9s} {'fit':>6s} {'rank 2000':>10s} {'fit':>6s}"
          f" {'why':>6s} {'similar':>8s}")
    with tempfile.TemporaryDirectory() as tmp:
        for n in sizes:
            if n == 2260:
                papers = read_path(ICLR).papers
            else:
                path = Path(tmp) / f"{n}.txt"
                subprocess.run([sys.executable, str(MAKE_CORPUS), str(n), "-o", str(path)], check=True)
                papers = read_path(path).papers
            start = time.perf_counter()
            counted(papers)
            counting = time.perf_counter() - start
            start = time.perf_counter()
            features = Features(papers)
            built = time.perf_counter() - start
            model = InterestModel(features)
            rng = np.random.default_rng(0)
            row = f"{n:8d} {counting:8.1f} {built:10.1f}"
            for count in (200, 2000):
                marked = rng.choice(len(papers), min(count, len(papers) // 2), replace=False)
                starred = marked[: len(marked) // 10]
                states = {papers[i].id: Triage(starred=k < len(starred), read=True) for k, i in enumerate(marked)}
                neg = np.setdiff1d(marked, starred)
                fit = median_ms(lambda: _fit(features, np.sort(starred), neg, np.full(len(neg), WEAK)))
                row += f" {median_ms(lambda: model.rank(states)):{9 if count == 200 else 10}.1f} {fit:6.1f}"
            ranking = model.rank(states)
            ids = [papers[i].id for i in rng.choice(len(papers), 5, replace=False)]
            why = statistics.median(median_ms(lambda: ranking.why(pid)) for pid in ids)
            similar = statistics.median(median_ms(lambda: features.similar(pid, 10)) for pid in ids)
            print(f"{row} {why:6.1f} {similar:8.1f}")


def across(seeds: list[int]) -> None:
    """P@20 of the For-you order of a list with `STARS` stars of one area in the other list only, and in the list itself."""
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.linear_model import LogisticRegression

    iclr, icml = read_path(ICLR).papers, read_path(ICML).papers
    text = lambda papers: [f"{p.title} {p.plain}" for p in papers]  # noqa: E731
    vectors = TfidfVectorizer(sublinear_tf=True, min_df=2, stop_words="english").fit(text(iclr) + text(icml))
    truth = np.array([p.area for p in iclr])
    judge = LogisticRegression(C=10, max_iter=2000).fit(vectors.transform(text(iclr)), truth)
    areas = {"ICLR": truth, "ICML": judge.predict(vectors.transform(text(icml)))}
    lists = {"ICLR": iclr, "ICML": icml}
    chosen = [a for a, _ in Counter(truth).most_common() if not a.startswith("general")][:AREAS]
    alone = {name: InterestModel(Features(papers)) for name, papers in lists.items()}
    print(f"\nAcross lists: For-you precision@20 with {STARS} stars on one area, nothing else marked (mean over seeds {seeds});"
          "\nICML's areas as a tf-idf + LR trained on ICLR's areas gives them")
    print(f"{'area':42s} {'ICML n':>6s} {'file':>6s} {'in ICML':>8s} {'ICLR→ICML':>10s} {'file':>6s} {'in ICLR':>8s} {'ICML→ICLR':>10s}")
    means: dict[str, list[float]] = {}
    for a in chosen:
        row: list[float] = []
        for target, source in (("ICML", "ICLR"), ("ICLR", "ICML")):
            wanted = areas[target] == a
            within, cross = [], []
            for seed in seeds:
                rng = np.random.default_rng(seed)
                own = rng.choice(np.flatnonzero(wanted), min(STARS, int(wanted.sum())), replace=False)
                ranking = alone[target].rank({lists[target][i].id: Triage(starred=True) for i in own})
                within.append(wanted[[alone[target].features.row(pid) for pid in ranking.order[:20]]].mean())
                others = [lists[source][i] for i in rng.choice(np.flatnonzero(areas[source] == a), STARS, replace=False)]
                model = InterestModel(Features(lists[target], outside=others))
                ranked = model.rank({p.id: Triage(starred=True) for p in others})
                cross.append(wanted[[model.features.row(pid) for pid in ranked.order[:20]]].mean())
            row += [wanted[:20].mean(), statistics.mean(within), statistics.mean(cross)]
        for name, value in zip(("file ICML", "in ICML", "ICLR→ICML", "file ICLR", "in ICLR", "ICML→ICLR"), row):
            means.setdefault(name, []).append(value)
        print(f"{a[:42]:42s} {int((areas['ICML'] == a).sum()):6d} " + " ".join(f"{v:{w}.3f}" for v, w in zip(row, (6, 8, 10, 6, 8, 10))))
    print(f"{'MEAN over areas':42s} {'':6s} " + " ".join(f"{statistics.mean(v):{w}.3f}" for v, w in zip(means.values(), (6, 8, 10, 6, 8, 10))))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", default="0,1,2,3,4")
    parser.add_argument("--sizes", default="2260,10000,100000")
    parser.add_argument("--skip-speed", action="store_true")
    parser.add_argument("--skip-quality", action="store_true")
    parser.add_argument("--skip-across", action="store_true")
    args = parser.parse_args()
    if not args.skip_across:
        across([int(s) for s in args.seeds.split(",")])
    if not args.skip_quality:
        quality([int(s) for s in args.seeds.split(",")])
    if not args.skip_speed:
        speed([int(s) for s in args.sizes.split(",")])


if __name__ == "__main__":
    main()
