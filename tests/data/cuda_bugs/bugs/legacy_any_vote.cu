// Early-exit test for an iterative solver: a warp stops when none of its lanes changed.
__global__ void relax(float* __restrict__ x, const float* __restrict__ target, int* __restrict__ changed, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    bool moved = false;
    if (i < n) {
        float next = 0.5f * (x[i] + target[i]);
        moved = fabsf(next - x[i]) > 1e-6f;
        x[i] = next;
    }
    if (__any(moved) && (threadIdx.x & 31) == 0) atomicOr(changed, 1);
}
