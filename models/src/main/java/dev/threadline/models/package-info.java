/** The seam between Threadline and language models, and its implementations. */
package dev.threadline.models;
