// Counts, per block, the entries above a threshold among the first `valid` of each 512-chunk.
__global__ void count_above(const float* __restrict__ x, int* __restrict__ counts, int valid, float threshold) {
    int i = blockIdx.x * 512 + threadIdx.x;
    if (threadIdx.x >= valid) return;
    int hits = __syncthreads_count(x[i] > threshold);
    if (threadIdx.x == 0) counts[blockIdx.x] = hits;
}

void count_above_launch(const float* x, int* counts, int chunks, int valid, float threshold) {
    count_above<<<chunks, 512>>>(x, counts, valid, threshold);
}
