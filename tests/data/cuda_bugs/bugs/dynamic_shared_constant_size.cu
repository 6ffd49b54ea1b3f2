// Histogram of 16-bit keys into 24576 bins per block (96 KB of counters), merged into global counts.
constexpr int BINS = 24576;
constexpr int SMEM_BYTES = BINS * 4;

__global__ void wide_histogram(const unsigned short* __restrict__ keys, unsigned int* __restrict__ counts, int n) {
    extern __shared__ unsigned int bins[];
    for (int b = threadIdx.x; b < BINS; b += blockDim.x) bins[b] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        atomicAdd(&bins[keys[i] % BINS], 1u);
    }
    __syncthreads();
    for (int b = threadIdx.x; b < BINS; b += blockDim.x) atomicAdd(&counts[b], bins[b]);
}

void wide_histogram_launch(const unsigned short* keys, unsigned int* counts, int n) {
    wide_histogram<<<132, 512, SMEM_BYTES>>>(keys, counts, n);
}
