"""An LSTM that reads each 8x8 digit row by row (8 steps of 8 pixels), then a Linear layer on
its last hidden state, on scikit-learn's 8x8 digits: Adam with a cosine learning-rate decay.

    python examples/digits_lstm.py --epochs 30

Writes digits_lstm.png (loss and accuracy by epoch) beside this script.
"""

from pathlib import Path

import digits_common as common

import tapegrad as tg
from tapegrad import nn


class RowReader(nn.Module):
    """``images`` (N, 8, 8): the rows are the time steps, each row's pixels the features."""

    def __init__(self, hidden: int) -> None:
        self.lstm = nn.LSTM(8, hidden, batch_first=True)
        self.head = nn.Linear(hidden, 10)

    def forward(self, images: tg.Tensor) -> tg.Tensor:
        _, (h_n, _) = self.lstm(images)
        return self.head(h_n[-1])  # the last layer's state after the last row


def main() -> None:
    args = common.parse_args(__doc__, epochs=30, plot=Path(__file__).with_suffix(".png"))
    tg.random.seed(args.seed)  # the initial weights
    data = common.load((8, 8), args.device, args.seed)
    model = RowReader(hidden=64)
    model.to(args.device)
    print(model)
    schedule = common.cosine_schedule(args, train_size=len(data[0]))
    optimizer = tg.optim.Adam(model.trainable_variables, lr=schedule)
    history = common.fit(model, optimizer, data, args.epochs, args.batch_size, args.seed)
    common.plot(history, args.plot, "LSTM reading 8x8 digits row by row (tapegrad)")
    common.report(history, args.plot)


if __name__ == "__main__":
    main()
