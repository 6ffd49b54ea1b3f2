// Block sums of 256 floats: shared-memory tree reduction.
__global__ void block_sum256(const float* __restrict__ x, float* __restrict__ sums, int n) {
    __shared__ float s[256];
    int tid = threadIdx.x;
    int i = blockIdx.x * 256 + tid;
    s[tid] = (i < n) ? x[i] : 0.0f;
    __syncthreads();
    for (int stride = 128; stride > 0; stride >>= 1) {
        if (tid < stride) s[tid] += s[tid + stride];
    }
    if (tid == 0) sums[blockIdx.x] = s[0];
}

void block_sum256_launch(const float* x, float* sums, int n) {
    block_sum256<<<(n + 255) / 256, 256>>>(x, sums, n);
}
