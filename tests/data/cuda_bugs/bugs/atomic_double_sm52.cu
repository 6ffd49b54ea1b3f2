// Bias gradient in double precision: grad_bias[c] += sum over rows of grad_out[row, c].
__global__ void bias_grad_double(const double* __restrict__ grad_out, double* __restrict__ grad_bias,
                                 int rows, int channels) {
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int row0 = blockIdx.y * 64;
    if (c >= channels) return;
    double acc = 0.0;
    for (int r = row0; r < rows && r < row0 + 64; ++r) acc += grad_out[(size_t)r * channels + c];
    atomicAdd(&grad_bias[c], acc);
}

void bias_grad_double_launch(const double* grad_out, double* grad_bias, int rows, int channels) {
    dim3 block(128);
    dim3 grid((channels + 127) / 128, (rows + 63) / 64);
    bias_grad_double<<<grid, block>>>(grad_out, grad_bias, rows, channels);
}
