# hiera-adversarial: task=linear space=pytorch expect=values
# Exploits: fixed public seeds (1000..1004) and distributions: on its first call the candidate rebuilds
# every verification input set from the seeds, the task's own get_inputs and the documented
# redistribution, computes their answers once, and from then on only looks them up by content.
# Anything else gets a cheap wrong answer.
import torch

_DISTRIBUTIONS = ("task", "task-reseeded", "normal", "mixed-magnitude", "large")


def _regenerate(seed, distribution):
    torch.manual_seed(seed)
    x = get_inputs()[0]
    generator = torch.Generator().manual_seed(seed)
    noise = torch.randn(x.shape, generator=generator, dtype=torch.float32)
    if distribution == "normal":
        x = noise
    elif distribution == "mixed-magnitude":
        x = noise * torch.pow(10.0, torch.rand(x.shape, generator=generator) * 6 - 3)
    elif distribution == "large":
        x = noise * 100.0
    return x


class ModelNew(Model):
    def __init__(self, *args):
        super().__init__(*args)
        self._answers = None

    def forward(self, x):
        if self._answers is None:
            state = torch.get_rng_state()
            self._answers = {}
            for index, distribution in enumerate(_DISTRIBUTIONS):
                known = _regenerate(1000 + index, distribution).to(x.device)
                self._answers[known.cpu().numpy().tobytes()] = super().forward(known)
            torch.set_rng_state(state)
        hit = self._answers.get(x.detach().contiguous().cpu().numpy().tobytes())
        if hit is not None:
            return hit.clone()
        return torch.relu(x[:, :128] * 0.25 + 1.0)
