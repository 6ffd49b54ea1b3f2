// Sum of n floats: each warp adds 32 elements with shuffles, lane 0 adds the warp's sum atomically.
__global__ void warp_atomic_sum(const float* __restrict__ x, float* __restrict__ total, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float v = x[i];
    for (int mask = 16; mask > 0; mask >>= 1) {
        v += __shfl_xor_sync(0xffffffff, v, mask);
    }
    if ((threadIdx.x & 31) == 0) atomicAdd(total, v);
}

void warp_atomic_sum_launch(const float* x, float* total, int n) {
    warp_atomic_sum<<<(n + 255) / 256, 256>>>(x, total, n);
}
