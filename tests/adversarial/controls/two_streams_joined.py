# hiera-adversarial: task=pointwise_large space=pytorch expect=pass device=cuda
# Legitimate use of a second stream: the halves of the batch run concurrently and the caller's
# stream waits for the side stream before returning, so the timing covers all the work.
import torch


class ModelNew(Model):
    def __init__(self, *args):
        super().__init__(*args)
        self.side = torch.cuda.Stream()

    def forward(self, x):
        main = torch.cuda.current_stream()
        half = x.shape[0] // 2
        out = torch.empty_like(x)
        self.side.wait_stream(main)
        with torch.cuda.stream(self.side):
            out[half:] = Model.forward(self, x[half:])
        out[:half] = Model.forward(self, x[:half])
        main.wait_stream(self.side)
        return out
