// Stream compaction with warp-aggregated atomics: keep x[i] > threshold, order within a warp kept.
__global__ void compact_greater(const float* __restrict__ x, float* __restrict__ out, int* __restrict__ count,
                                int n, float threshold) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    bool keep = i < n && x[i] > threshold;
    unsigned int mask = __ballot_sync(0xffffffff, keep);
    if (keep) {
        int leader = __ffs(mask) - 1;
        int base = 0;
        if (lane == leader) base = atomicAdd(count, __popc(mask));
        base = __shfl_sync(mask, base, leader);
        int rank = __popc(mask & ((1u << lane) - 1));
        out[base + rank] = x[i];
    }
}

void compact_greater_launch(const float* x, float* out, int* count, int n, float threshold) {
    compact_greater<<<(n + 255) / 256, 256>>>(x, out, count, n, threshold);
}
