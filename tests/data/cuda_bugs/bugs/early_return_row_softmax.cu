// Softmax over each row of a rows x cols matrix, one block per row (cols <= blockDim.x).
__global__ void row_softmax(const float* __restrict__ x, float* __restrict__ y, int cols) {
    __shared__ float red[256];
    int row = blockIdx.x;
    int col = threadIdx.x;
    if (col >= cols) return;
    float v = x[(size_t)row * cols + col];
    red[col] = v;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (col < s && col + s < cols) red[col] = fmaxf(red[col], red[col + s]);
        __syncthreads();
    }
    float row_max = red[0];
    __syncthreads();
    float e = __expf(v - row_max);
    red[col] = e;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (col < s && col + s < cols) red[col] += red[col + s];
        __syncthreads();
    }
    y[(size_t)row * cols + col] = e / red[0];
}

void row_softmax_launch(const float* x, float* y, int rows, int cols) {
    row_softmax<<<rows, 256>>>(x, y, cols);
}
