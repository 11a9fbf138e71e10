"""An MLP (64-128-10) on scikit-learn's 8x8 digits: Adam with a cosine learning-rate decay.

    python examples/digits_mlp.py --epochs 30

Writes digits_mlp.png (loss and accuracy by epoch) beside this script.
"""

from pathlib import Path

import digits_common as common

import tapegrad as tg


def main() -> None:
    args = common.parse_args(__doc__, epochs=30, plot=Path(__file__).with_suffix(".png"))
    tg.random.seed(args.seed)  # the initial weights
    data = common.load((64,), args.device, args.seed)
    model = tg.nn.Sequential(tg.nn.Linear(64, 128), tg.nn.ReLU(), tg.nn.Linear(128, 10))
    model.to(args.device)
    print(model)
    schedule = common.cosine_schedule(args, train_size=len(data[0]))
    optimizer = tg.optim.Adam(model.trainable_variables, lr=schedule)
    history = common.fit(model, optimizer, data, args.epochs, args.batch_size, args.seed)
    common.plot(history, args.plot, "MLP 64-128-10 on 8x8 digits (tapegrad)")
    common.report(history, args.plot)


if __name__ == "__main__":
    main()
