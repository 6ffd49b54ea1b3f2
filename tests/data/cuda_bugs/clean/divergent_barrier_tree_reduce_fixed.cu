// Sum of n floats: each block reduces blockDim.x elements in shared memory and
// writes one partial sum; a second pass (not shown) adds the partials.
__global__ void block_sum(const float* __restrict__ in, float* __restrict__ partials, int n) {
    extern __shared__ float sdata[];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = (i < n) ? in[i] : 0.0f;
    __syncthreads();
    for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) {
            sdata[tid] += sdata[tid + s];
        }
        __syncthreads();
    }
    if (tid == 0) partials[blockIdx.x] = sdata[0];
}

void block_sum_launch(const float* in, float* partials, int n) {
    const int threads = 256;
    const int blocks = (n + threads - 1) / threads;
    block_sum<<<blocks, threads, threads * sizeof(float)>>>(in, partials, n);
}
