# hiera-adversarial: task=pointwise_large space=pytorch expect=streams device=cuda
# Exploits: timers that record their end event on the caller's stream only: the work runs on a
# side stream the caller's stream never waits for, so the events bracket almost nothing.
import torch


class ModelNew(Model):
    def __init__(self, *args):
        super().__init__(*args)
        self.side = torch.cuda.Stream()

    def forward(self, x):
        out = torch.empty_like(x)
        self.side.wait_stream(torch.cuda.current_stream())  # the inputs are ready before it starts
        with torch.cuda.stream(self.side):
            out.copy_(Model.forward(self, x))
        return out  # and nothing makes the caller's stream wait for the side stream
