// Running sums of chunks of 256: every pass stages blockDim.x values and adds the neighbour's.
__global__ void staged_pairs(const float* __restrict__ x, float* __restrict__ y, int n) {
    __shared__ float stage[256];
    for (int k = threadIdx.x; k < n; k += blockDim.x) {
        stage[threadIdx.x] = x[k];
        __syncthreads();
        float right = (threadIdx.x + 1 < blockDim.x) ? stage[threadIdx.x + 1] : 0.0f;
        y[k] = stage[threadIdx.x] + right;
        __syncthreads();
    }
}

void staged_pairs_launch(const float* x, float* y, int n) {
    staged_pairs<<<1, 256>>>(x, y, n);
}
