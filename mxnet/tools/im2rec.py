"""im2rec: make image lists (``.lst``) and pack images into RecordIO files (``.rec`` + ``.idx``).

Two steps, as with 1.9.1's ``tools/im2rec.py`` (same options, same files)::

    python -m mxnet.tools.im2rec --list [--recursive] PREFIX ROOT   # ROOT's images -> PREFIX.lst
    python -m mxnet.tools.im2rec [--resize N ...] PREFIX ROOT       # PREFIX*.lst -> .rec / .idx

A list line is ``index<TAB>label(s)<TAB>path`` (labels printed with ``%f``, the path relative to
ROOT). With ``--recursive`` every sub-folder of ROOT is a class, numbered in sorted order.
Lists are shuffled with ``random.seed(100)`` unless ``--no-shuffle``, giving 1.9.1's order.

Each record is ``recordio.pack_img(IRHeader(0, label, index, 0), image)``: the image is read
as OpenCV would (BGR), optionally centre-cropped to a square and resized (shorter side,
bilinear), and re-encoded (JPEG quality 95 by default); ``--pass-through`` stores the file's
bytes unchanged. OpenCV is used when installed, Pillow otherwise.
"""
from __future__ import annotations

import argparse
import os
import random
import sys
import time
import traceback

from .. import recordio
from ..gluon.data.vision import _image


# -- lists ------------------------------------------------------------------------------------------
def list_image(root, recursive, exts):
    """Yield ``(index, path relative to root, label)`` for the images under ``root``."""
    exts = {e.lower() for e in exts}
    i = 0
    if recursive:
        classes = {}
        for path, dirs, files in os.walk(root, followlinks=True):
            dirs.sort()
            for fname in sorted(files):
                fpath = os.path.join(path, fname)
                if os.path.isfile(fpath) and os.path.splitext(fname)[1].lower() in exts:
                    label = classes.setdefault(path, len(classes))
                    yield i, os.path.relpath(fpath, root), label
                    i += 1
        for path, label in sorted(classes.items(), key=lambda kv: kv[1]):
            print(os.path.relpath(path, root), label)
    else:
        for fname in sorted(os.listdir(root)):
            fpath = os.path.join(root, fname)
            if os.path.isfile(fpath) and os.path.splitext(fname)[1].lower() in exts:
                yield i, os.path.relpath(fpath, root), 0
                i += 1


def write_list(path_out, image_list):
    """Write items ``(index, path, label, ...)`` as ``index<TAB>label<TAB>...<TAB>path`` lines."""
    with open(path_out, "w") as fout:
        for item in image_list:
            labels = "".join("%f\t" % v for v in item[2:])
            fout.write("%d\t%s%s\n" % (item[0], labels, item[1]))


def make_list(args):
    """Write ``prefix[_chunk][_train|_val|_test].lst`` for the images under ``args.root``."""
    image_list = list(list_image(args.root, args.recursive, args.exts))
    if args.shuffle:
        random.seed(100)
        random.shuffle(image_list)
    n = len(image_list)
    chunk_size = (n + args.chunks - 1) // args.chunks
    for c in range(args.chunks):
        chunk = image_list[c * chunk_size:(c + 1) * chunk_size]
        suffix = "_%d" % c if args.chunks > 1 else ""
        n_train = int(chunk_size * args.train_ratio)
        n_test = int(chunk_size * args.test_ratio)
        if args.train_ratio == 1.0:
            write_list(args.prefix + suffix + ".lst", chunk)
            continue
        if args.test_ratio:
            write_list(args.prefix + suffix + "_test.lst", chunk[:n_test])
        if args.train_ratio + args.test_ratio < 1.0:
            write_list(args.prefix + suffix + "_val.lst", chunk[n_test + n_train:])
        write_list(args.prefix + suffix + "_train.lst", chunk[n_test:n_test + n_train])


def read_list(path_in):
    """Yield ``[index, path, label, ...]`` for each valid line of a ``.lst`` file."""
    with open(path_in) as fin:
        for line in fin:
            fields = [f.strip() for f in line.strip().split("\t")]
            if len(fields) < 3:
                print("lst should have at least has three parts, but only has %s parts for %s"
                      % (len(fields), fields))
                continue
            try:
                item = [int(fields[0]), fields[-1]] + [float(v) for v in fields[1:-1]]
            except ValueError as e:
                print("Parsing lst met error for %s, detail: %s" % (fields, e))
                continue
            yield item


# -- records ----------------------------------------------------------------------------------------
def _crop_and_resize(img, args):
    if args.center_crop:
        h, w = img.shape[:2]
        if h > w:
            top = (h - w) // 2
            img = img[top:top + w]
        else:
            left = (w - h) // 2
            img = img[:, left:left + h]
    if args.resize:
        h, w = img.shape[:2]
        if h > w:
            size = (args.resize, h * args.resize // w)
        else:
            size = (w * args.resize // h, args.resize)
        img = _image.resize(img, size[0], size[1], 1)
    return img


def image_encode(args, item):
    """The packed record for one list item, or None (after printing why) if it fails."""
    fullpath = os.path.join(args.root, item[1])
    if len(item) > 3 and args.pack_label:
        header = recordio.IRHeader(0, item[2:], item[0], 0)
    else:
        header = recordio.IRHeader(0, item[2], item[0], 0)
    try:
        with open(fullpath, "rb") as fin:
            data = fin.read()
    except OSError as e:
        print("imread error trying to load file: %s (%s)" % (fullpath, e))
        return None
    if args.pass_through:
        return recordio.pack(header, data)
    try:
        img = recordio._decode_image(data, args.color)
    except Exception as e:  # noqa: BLE001 - reported and skipped, as 1.9.1 does
        print("imread read blank (None) image for file: %s (%s)" % (fullpath, e))
        return None
    try:
        img = _crop_and_resize(img, args)
        return recordio.pack_img(header, img, quality=args.quality, img_fmt=args.encoding)
    except Exception as e:  # noqa: BLE001
        traceback.print_exc()
        print("pack_img error on file: %s" % fullpath, e)
        return None


def _encode_job(job):
    args, item = job
    return image_encode(args, item)


def write_record(args, lst_path, working_dir):
    """Pack the images of the list ``lst_path`` into ``<list name>.rec`` / ``.idx``."""
    base = os.path.splitext(os.path.basename(lst_path))[0]
    record = recordio.MXIndexedRecordIO(os.path.join(working_dir, base + ".idx"),
                                        os.path.join(working_dir, base + ".rec"), "w")
    items = list(read_list(lst_path))
    jobs = ((args, item) for item in items)
    pool = None
    if args.num_thread > 1:
        import multiprocessing
        pool = multiprocessing.Pool(args.num_thread)
        results = pool.imap(_encode_job, jobs, chunksize=8)
    else:
        results = map(_encode_job, jobs)
    tic = time.time()
    count = 0
    try:
        for item, s in zip(items, results):
            if s is not None:
                record.write_idx(item[0], s)
            if count % 1000 == 0:
                now = time.time()
                print("time:", now - tic, " count:", count)
                tic = now
            count += 1
    finally:
        if pool is not None:
            pool.close()
            pool.join()
        record.close()
    return count


# -- command line -----------------------------------------------------------------------------------
def parse_args(argv=None):
    parser = argparse.ArgumentParser(
        prog="python -m mxnet.tools.im2rec",
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
        description="Create an image list or make a record database by reading from an image list")
    parser.add_argument("prefix", help="prefix of input/output lst and rec files.")
    parser.add_argument("root", help="path to folder containing images.")
    lists = parser.add_argument_group("Options for creating image lists")
    lists.add_argument("--list", action="store_true",
                       help="create image list(s) <prefix>.lst by walking ROOT instead of "
                            "packing <prefix>*.lst into record files")
    lists.add_argument("--exts", nargs="+", default=[".jpeg", ".jpg", ".png"],
                       help="list of acceptable image extensions.")
    lists.add_argument("--chunks", type=int, default=1, help="number of chunks.")
    lists.add_argument("--train-ratio", type=float, default=1.0,
                       help="Ratio of images to use for training.")
    lists.add_argument("--test-ratio", type=float, default=0,
                       help="Ratio of images to use for testing.")
    lists.add_argument("--recursive", action="store_true",
                       help="walk sub-folders and give each folder its own label; otherwise "
                            "only ROOT's own images, all with label 0")
    lists.add_argument("--no-shuffle", dest="shuffle", action="store_false",
                       help="keep the images in file-name order in the list")
    recs = parser.add_argument_group("Options for creating database")
    recs.add_argument("--pass-through", action="store_true",
                      help="store the image files' bytes unchanged")
    recs.add_argument("--resize", type=int, default=0,
                      help="resize the shorter edge of each image to this size (0: keep)")
    recs.add_argument("--center-crop", action="store_true",
                      help="crop the centre square of each image")
    recs.add_argument("--quality", type=int, default=95,
                      help="JPEG quality for encoding, 1-100; or PNG compression for encoding, 1-9")
    recs.add_argument("--num-thread", type=int, default=1,
                      help="number of processes encoding images (the record order stays the "
                           "list's order)")
    recs.add_argument("--color", type=int, default=1, choices=[-1, 0, 1],
                      help="1: colour (alpha dropped), 0: grayscale, -1: as stored")
    recs.add_argument("--encoding", type=str, default=".jpg", choices=[".jpg", ".png"],
                      help="encoding of the stored images.")
    recs.add_argument("--pack-label", action="store_true",
                      help="store every label of a multi-label list line in the record")
    args = parser.parse_args(argv)
    args.prefix = os.path.abspath(args.prefix)
    args.root = os.path.abspath(args.root)
    return args


def main(argv=None):
    args = parse_args(argv)
    if args.list:
        make_list(args)
        return 0
    working_dir = args.prefix if os.path.isdir(args.prefix) else os.path.dirname(args.prefix)
    lists = sorted(os.path.join(working_dir, f) for f in os.listdir(working_dir)
                   if os.path.isfile(os.path.join(working_dir, f)))
    lists = [f for f in lists if f.startswith(args.prefix) and f.endswith(".lst")]
    for fname in lists:
        print("Creating .rec file from", fname, "in", working_dir)
        write_record(args, fname, working_dir)
    if not lists:
        print("Did not find and list file with prefix %s" % args.prefix)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
