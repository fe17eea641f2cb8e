import { soakHalf } from './soak';

soakHalf(0);
