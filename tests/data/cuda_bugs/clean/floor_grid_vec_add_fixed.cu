// c = a + b over n floats.
__global__ void vec_add(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

void vec_add_launch(const float* a, const float* b, float* c, int n, cudaStream_t stream) {
    const int block = 256;
    const int grid = (n + block - 1) / block;
    vec_add<<<grid, block, 0, stream>>>(a, b, c, n);
}
