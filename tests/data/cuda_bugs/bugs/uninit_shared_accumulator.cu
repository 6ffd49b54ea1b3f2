// Per-block column sums of a rows x 256 matrix, block b taking rows b, b + gridDim.x, ...
__global__ void column_partials(const float* __restrict__ x, float* __restrict__ partials, int rows) {
    __shared__ float acc[256];
    for (int r = blockIdx.x; r < rows; r += gridDim.x) {
        acc[threadIdx.x] += x[r * 256 + threadIdx.x];
    }
    __syncthreads();
    partials[blockIdx.x * 256 + threadIdx.x] = acc[threadIdx.x];
}

void column_partials_launch(const float* x, float* partials, int rows) {
    column_partials<<<64, 256>>>(x, partials, rows);
}
