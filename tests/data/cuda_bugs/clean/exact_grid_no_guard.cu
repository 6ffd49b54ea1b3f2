// Adds a per-row bias to a rows x cols matrix. The launch makes one block per row and one thread
// per column (cols <= 1024), so every thread's index is inside the matrix.
__global__ void add_row_bias(float* __restrict__ x, const float* __restrict__ bias) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    x[i] += bias[blockIdx.x];
}

void add_row_bias_launch(float* x, const float* bias, int rows, int cols) {
    add_row_bias<<<rows, cols>>>(x, bias);
}
