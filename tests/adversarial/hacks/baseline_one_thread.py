# hiera-adversarial: task=softmax_unfused space=pytorch expect=runtime-state
# Exploits: a baseline timed in the candidate's process: torch.set_num_threads(1) at import leaves the
# reference single-threaded; the candidate raises the thread count for its own call and lowers it
# again before returning. (Where the harness already runs one thread, it sets two: any change of the
# process's thread count is the same attack on a baseline timed beside it.)
import torch

torch.set_num_threads(1 if torch.get_num_threads() > 1 else 2)
_THREADS = 8


class ModelNew(Model):
    def forward(self, x):
        torch.set_num_threads(_THREADS)
        out = torch.softmax(x, dim=-1)
        torch.set_num_threads(1)
        return out
