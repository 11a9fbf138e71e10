"""A small CNN (two Conv2d + BatchNorm2d + ReLU + MaxPool2d blocks, then Linear) on
scikit-learn's 8x8 digits. BatchNorm normalises with each batch's statistics in training and
with its running statistics in evaluation (common.evaluate switches the mode).

    python examples/digits_cnn.py --epochs 20

Writes digits_cnn.png (loss and accuracy by epoch) beside this script.
"""

from pathlib import Path

import digits_common as common

import tapegrad as tg
from tapegrad import nn


def main() -> None:
    args = common.parse_args(__doc__, epochs=20, plot=Path(__file__).with_suffix(".png"))
    tg.random.seed(args.seed)  # the initial weights
    data = common.load((1, 8, 8), args.device, args.seed)
    model = nn.Sequential(
        nn.Conv2d(1, 16, 3, padding=1, bias=False), nn.BatchNorm2d(16), nn.ReLU(),
        nn.MaxPool2d(2),  # 16 x 4 x 4
        nn.Conv2d(16, 32, 3, padding=1, bias=False), nn.BatchNorm2d(32), nn.ReLU(),
        nn.MaxPool2d(2),  # 32 x 2 x 2
        nn.Flatten(), nn.Linear(128, 10),
    )  # fmt: skip
    model.to(args.device)
    print(model)
    schedule = common.cosine_schedule(args, train_size=len(data[0]))
    optimizer = tg.optim.Adam(model.trainable_variables, lr=schedule)
    history = common.fit(model, optimizer, data, args.epochs, args.batch_size, args.seed)
    common.plot(history, args.plot, "CNN with BatchNorm on 8x8 digits (tapegrad)")
    common.report(history, args.plot)


if __name__ == "__main__":
    main()
